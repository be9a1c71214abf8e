import { describe, expect, it } from 'vitest';
import { buildTextChannelRequest, parseChannelVerdict } from '../../critics/trajectory-critic.js';
import { trajectoryTextCriticRole } from '../../models/reference/roles/critics.js';
import { furtherSettings } from '../../models/reference/roles/trajectory-critic.js';
import { newResultLine, typedMergedValues } from '../../models/reference/roles/evidence.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { roleModel } from './fake-model.js';

type StepLine = { summary: string; actionText: string };
async function textVerdict(instruction: string, steps: StepLine[], captions: string[], outcome?: string) {
  const request = buildTextChannelRequest({ instruction, steps, captions, outcome });
  const { response } = await roleModel(trajectoryTextCriticRole, {} as OcrEngine).complete(request);
  const parsed = parseChannelVerdict(response.choices[0]!.message, 'text');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.verdict;
}

/** Read off v32's false acceptances (issue 17). Invented apps and names here. */
describe('one field typed with two of the request\'s values', () => {
  it('is a value with another run into it; a value alone, or a message quoting another value, is not', () => {
    const entities = ['Dock meeting', 'ana.lind@example.org', 'Bring the slides'];
    expect(typedMergedValues(['ana.lind@example.org', 'Dock meeting" to ana.lind@example.org', 'Bring the slides'], entities)).toEqual({
      typed: 'Dock meeting" to ana.lind@example.org',
      a: 'Dock meeting',
      b: 'ana.lind@example.org',
    });
    expect(typedMergedValues(['ana.lind@example.org', 'Dock meeting', 'Bring the slides'], entities)).toBeUndefined();
    // A message that names a place of the request holds it by design: one value inside the other.
    expect(typedMergedValues(['Meet me at Pier 5'], ['Meet me at Pier 5', 'Pier 5', 'Jo'])).toBeUndefined();
    // A typed text that is itself a value of the request.
    expect(typedMergedValues(['Tom Hale'], ['Tom Hale', 'Tom', 'Hale'])).toBeUndefined();
  });

  it('makes the text channel reject a mail sent with the recipient in its subject', async () => {
    const steps: StepLine[] = [
      { summary: 'Opened "Postbox"; the screen now shows "Inbox".', actionText: '{"action":"open","text":"Postbox"}' },
      { summary: 'Tapped "New mail"; the screen now shows "Send".', actionText: '{"action":"click","coordinate":[320,860]}' },
      { summary: 'Typed "ana.lind@example.org"; the screen now shows "ana.lind@example.org".', actionText: '{"action":"type","text":"ana.lind@example.org"}' },
      { summary: 'Typed "Dock meeting" to ana.lind@example.org"; the screen now shows "Dock meeting" to ana.lind@example.org".', actionText: '{"action":"type","text":"Dock meeting\\" to ana.lind@example.org"}' },
      { summary: 'Typed "Bring the slides"; the screen now shows "Bring the slides".', actionText: '{"action":"type","text":"Bring the slides"}' },
      { summary: 'Tapped "Send"; the screen now shows "Message sent".', actionText: '{"action":"click","coordinate":[370,57]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const captions = ['Home | Postbox', 'Inbox | New mail', 'New mail | To | Subject | Send', 'To | ana.lind@example.org', 'Subject | Dock meeting" to ana.lind@example.org', 'Bring the slides', 'Inbox | Message sent'];
    const instruction = 'Send an email with the subject "Dock meeting" to ana.lind@example.org, and the body should say "Bring the slides".';
    const v = await textVerdict(instruction, steps, captions, 'success');
    expect(v.correct).toBe(false);
    expect(v.reason).toMatch(/holds both/);
  });
});

describe('an episode the agent never ended', () => {
  const steps: StepLine[] = [
    { summary: 'Opened "Meterly"; the screen now shows "Sessions".', actionText: '{"action":"open","text":"Meterly"}' },
    { summary: 'Tapped "Bay 17"; the screen now shows "Bay 17".', actionText: '{"action":"click","coordinate":[100,300]}' },
  ];
  const captions = ['Home | Meterly', 'Sessions | Bay 17 | 12 min left', 'Bay 17 | 12 min left | 15 minutes | 30 minutes | Continue'];
  it('is no action done when the request asks for one in any verb of English, but a page asked to be seen is', async () => {
    const topped = await textVerdict('Top the Bay 17 session up with 30 minutes more.', steps, captions);
    expect(topped.correct).toBe(false);
    expect(topped.reason).toMatch(/never ended the episode/);
    const shown = await textVerdict('Show me the Bay 17 session.', steps, captions);
    expect(shown.reason).not.toMatch(/never ended the episode/);
  });

  it('is an action done when the final screen newly reports it in a past participle', async () => {
    expect(newResultLine(['Bay 17 | 15 minutes'], ['Bay 17', 'Time added', 'Ends 6:40 PM'])).toBe('Time added');
    // Standing text with a time in it, a line shown before, or a long sentence reports nothing new.
    expect(newResultLine([], ['Enforced Mon-Sat, 8 AM - 8 PM'])).toBeUndefined();
    expect(newResultLine(['Bay 17 | Time added'], ['Bay 17', 'Time added'])).toBeUndefined();
    expect(newResultLine([], ['Parking is not allowed on streets marked for cleaning'])).toBeUndefined();
    const topped = await textVerdict('Top the Bay 17 session up with 30 minutes more.', steps, [...captions.slice(0, -1), 'Bay 17 | 42 min left | Time added']);
    expect(topped.reason).not.toMatch(/never ended the episode/);
  });
});

describe('a request that sets several settings', () => {
  it('reads every further "and the B to V" of the sentence, not a second action', () => {
    expect(furtherSettings('Set my Tixly seat preference to Aisle and the showtime reminder to 1 day before.')).toEqual([{ setting: 'showtime reminder', value: '1 day before' }]);
    expect(furtherSettings('Set the showtime reminder to 1 day before.')).toEqual([]);
    expect(furtherSettings('Set the volume to 5 and send it to Tom')).toEqual([]);
  });

  it('is not done when the final screen shows only the first at its value', async () => {
    const steps: StepLine[] = [
      { summary: 'Opened "Tixly"; the screen now shows "Preferences".', actionText: '{"action":"open","text":"Tixly"}' },
      { summary: 'Tapped "Aisle"; the screen now shows "Seat preference saved".', actionText: '{"action":"click","coordinate":[100,300]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const before = 'Preferences | Seat preference | No preference | Showtime reminder | 1 hour before';
    const request = 'Set my Tixly seat preference to Aisle and the showtime reminder to 1 day before.';
    const half = await textVerdict(request, steps, ['Home | Tixly', before, 'Preferences | Seat preference | Aisle | Showtime reminder | 1 hour before | Seat preference saved'], 'success');
    expect(half.correct).toBe(false);
    expect(half.reason).toMatch(/not "showtime reminder" set to "1 day before"/);
    const both = await textVerdict(request, steps, ['Home | Tixly', before, 'Preferences | Seat preference | Aisle | Showtime reminder | 1 day before | Saved'], 'success');
    expect(both.correct).toBe(true);
  });
});

describe('one value said in two parts', () => {
  it('is no merged value: "5 Harbour View" for "5" and "Harbour View"', () => {
    expect(typedMergedValues(['5 Harbour View'], ['2', 'Hot Chocolate', '5', 'Harbour View', 'Cash'])).toBeUndefined();
  });
});

describe("a thing whose name ends in its app's name", () => {
  it('keeps the whole name when a screen shows it as a line ("Trip notes" in a notes app)', async () => {
    const steps: StepLine[] = [
      { summary: 'Opened "Notes"; the screen now shows "Search notes".', actionText: '{"action":"open","text":"Notes"}' },
      { summary: 'Tapped "Trip notes"; the screen now shows "Pin".', actionText: '{"action":"click","coordinate":[80,300]}' },
      { summary: 'Tapped "Pin"; the screen now shows "Unpin".', actionText: '{"action":"click","coordinate":[270,57]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const v = await textVerdict('Pin my note Trip notes to the top.', steps, ['Home | Notes', 'Notes | Trip notes | Groceries', 'Note | Pin | Edit | Trip notes | Pack the charger', 'Note | Unpin | Edit | Trip notes | Pinned | Pack the charger'], 'success');
    expect(v.correct).toBe(true);
  });
});

describe("an entity that is only the app's name", () => {
  it('is still left out: the app title on the final screen is no removed thing left behind', async () => {
    const steps: StepLine[] = [
      { summary: 'Opened "Chats"; the screen now shows "Chats".', actionText: '{"action":"open","text":"Chats"}' },
      { summary: 'Tapped "Delete conversation"; the screen now shows "Conversation deleted".', actionText: '{"action":"click","coordinate":[80,300]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const v = await textVerdict('Delete my conversation with Ines Moor in Chats.', steps, ['Home | Chats', 'Chats | Ines Moor | Delete conversation', 'Chats | Conversation deleted | Otto Lind'], 'success');
    expect(v.correct).toBe(true);
  });
});
