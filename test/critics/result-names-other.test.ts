import { describe, expect, it } from 'vitest';
import { resultNamesOther } from '../../models/reference/roles/evidence.js';

/** Read off Nimbrel's first contact (issue 17): a folder made with the default name, accepted as the one asked for. Invented data here. */
describe('a result message that names another thing', () => {
  const final = ['Work', 'My Drive > Work', 'Projects', 'Untitled folder', 'Modified Today', 'Created "Untitled folder"', '+ New'];
  it('"Created "Untitled folder"" for a folder named Old Plans, which the screen does not show, is another thing made', () => {
    expect(resultNamesOther('Make a new folder named Old Plans in Work on Cloudly.', ['Old Plans', 'Work'], final)).toEqual({ line: 'Created "Untitled folder"', quoted: 'Untitled folder', entity: 'Old Plans' });
  });
  it('is no evidence when the named thing is on the screen, when the message names it, or when the request names nothing', () => {
    expect(resultNamesOther('Make a new folder named Old Plans in Work on Cloudly.', ['Old Plans', 'Work'], [...final, 'Old Plans'])).toBeUndefined();
    expect(resultNamesOther('Make a new folder named Old Plans in Work.', ['Old Plans', 'Work'], ['Created "Old Plans"'])).toBeUndefined();
    expect(resultNamesOther('Move Tax 2024.pdf to Work.', ['Tax 2024.pdf', 'Work'], ['Moved "Tax 2024.pdf" to Work'])).toBeUndefined();
  });
});
