import { describe, expect, it } from 'vitest';
import { readRequest } from '../../models/reference/roles/trajectory-critic.js';

/** Read off v34's false rejections (issue 17): what the critics read from a request. Invented apps and names here. */
describe('the critics\' reading of a request', () => {
  it('a mail written to someone is sent', () => {
    expect(readRequest('Could you write an email to ana@example.org with the subject "Dock day" and the message "Bring the slides"?')).toMatchObject({
      intent: 'send',
      entities: ['Dock day', 'Bring the slides', 'ana@example.org'],
    });
    // (A text written into a note is still made, not sent.)
    expect(readRequest('Write "oat milk" in a new note.').intent).toBe('create');
  });

  it('"the message titled "X"" names the message, it dictates no text', () => {
    expect(readRequest('Please archive the message titled "Harbour minutes" in my inbox.').entities).toEqual(['Harbour minutes']);
    expect(readRequest('Text Bo with the message Running late').entities).toContain('Running late');
  });

  it('a switch position said after a name is the position asked for, no word of the name', () => {
    expect(readRequest('Would you please switch the alarm labelled Stretch Off?')).toMatchObject({ entities: ['Stretch'], intent: 'toggle', state: 'off' });
  });

  it('a text dictated last after "that reads:" is a value, not a question the request asks', () => {
    expect(readRequest('Send a mail to bo@example.org, subject Dock day, that reads: Are you free on Friday?')).toMatchObject({
      intent: 'send',
      question: false,
      entities: ['Dock day', 'Are you free on Friday', 'bo@example.org'],
    });
    expect(readRequest('What time does the Quay Cafe open?').question).toBe(true);
  });
});
