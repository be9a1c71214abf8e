import { describe, expect, it } from 'vitest';
import { PolicyMemory, intentWords, progressKey, slotEntities } from '../../models/reference/memory.js';
import type { OcrLine } from '../../models/reference/types.js';

/** The generalised memory (models/reference/memory.ts); its held-out measurement on the real apps is bench/memory-transfer.ts. */
const SCREEN = { width: 412, height: 915 };
const line = (text: string, x: number, y: number, w = 160, h = 22): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.9 });
const chats = (names: string[]): OcrLine[] => [
  line('New chat', 20, 40, 120, 26),
  ...names.map((n, i) => line(n, 20, 200 + 80 * i)),
  line('Chats', 40, 860, 50, 18),
  line('Settings', 300, 860, 60, 18),
];

describe('policy memory generalisation (unit)', () => {
  it('reads intent words without entities, slot entities without the app, and the progress marker', () => {
    expect(intentWords('Delete the note Gift ideas; I do not need it any more.')).toEqual(intentWords('Delete the note Travel checklist.'));
    expect(intentWords('Could you please send Mom a message saying "hi"?')).toEqual(intentWords('Send Lena Fisher a message saying "see you".'));
    expect(intentWords('Delete the note Gift ideas')).not.toEqual(intentWords('Pin my note Gift ideas to the top'));
    expect(slotEntities('Send Mom a message saying "hi" in Messages')).toEqual(['hi', 'Mom']);
    expect(progressKey([])).toBe('start');
    expect(progressKey(['Opened the app. [goal 1/6 done]', 'Swiped up. [goal 2/3: scroll 4]'])).toBe('goal 2/3: scroll #');
  });

  it('a step learned for one instruction transfers to another of the same kind: new entity, new wording', () => {
    const m = new PolicyMemory('0.1.1');
    const history = ['Opened the Messages app. [goal 1/6 done]', 'Tapped "New chat". [goal 2/6 done]'];
    m.add({
      instruction: 'Send Mom a message saying "Thanks for dinner".',
      lines: chats(['Mom', 'Lena Fisher', 'Bob']),
      screen: SCREEN,
      action: { action: 'click', coordinate: [40, 211] },
      conclusion: 'Tapped "Mom". [goal 4/6 done]',
      thought: 'Mom is the recipient.',
      history,
    });
    m.add({
      instruction: 'Send Mom a message saying "Thanks for dinner".',
      lines: chats(['Mom', 'Lena Fisher', 'Bob']),
      screen: SCREEN,
      action: { action: 'type', text: 'Thanks for dinner' },
      conclusion: 'Typed "Thanks for dinner". [goal 5/6 done]',
      history: [...history, 'Tapped "Mom". [goal 4/6 done]', 'Tapped the field. [goal 5/6: focused]'],
    });
    expect(m.generalSize).toBe(2);
    // Other recipient, other wording, rows in another order: tap the row the new request names.
    const hit = m.lookup('Could you send Lena Fisher a message saying "See you at 8"?', chats(['Bob', 'Mom', 'Lena Fisher']), SCREEN, history);
    expect(hit).toMatchObject({ match: 'general', conclusion: 'Tapped "Lena Fisher". [goal 4/6 done]', thought: 'Lena Fisher is the recipient.' });
    expect((hit!.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(340);
    expect((hit!.action as { coordinate: [number, number] }).coordinate[1]).toBeLessThan(384);
    // The typed text is the new request's text, at the progress where it was typed.
    const typed = m.lookup('Send Bob a message saying "On my way".', chats(['Mom']), SCREEN, [...history, 'Tapped "Bob". [goal 4/6 done]', 'Tapped the field. [goal 5/6: focused]']);
    expect(typed).toMatchObject({ match: 'general', action: { action: 'type', text: 'On my way' }, conclusion: 'Typed "On my way". [goal 5/6 done]' });
    // No transfer: the named row is not on screen; another kind of request; another progress; no history given.
    expect(m.lookup('Send Zoe a message saying "hi".', chats(['Mom', 'Bob']), SCREEN, history)).toBeUndefined();
    expect(m.lookup('Delete the chat with Bob.', chats(['Mom', 'Bob']), SCREEN, history)).toBeUndefined();
    expect(m.lookup('Send Bob a message saying "hi".', chats(['Mom', 'Bob']), SCREEN, ['Opened the Messages app. [goal 1/6 done]'])).toBeUndefined();
    expect(m.lookup('Send Bob a message saying "hi".', chats(['Mom', 'Bob']), SCREEN)).toBeUndefined();
    // A typed text not made of the request's entities is not generalised (it would leak one task into another).
    m.add({ instruction: 'Send Mom a note', lines: chats(['Mom']), screen: SCREEN, action: { action: 'type', text: 'hello there' }, conclusion: 'Typed.', history: [] });
    expect(m.lookup('Send Bob a note', chats(['Mom']), SCREEN, [])).toBeUndefined();
    // A remembered step is not repeated right after itself (any tier): the heuristic decides instead.
    const exact = 'Send Mom a message saying "Thanks for dinner".';
    expect(m.lookup(exact, chats(['Mom', 'Bob']), SCREEN, history)).toMatchObject({ match: 'exact', conclusion: 'Tapped "Mom". [goal 4/6 done]' });
    expect(m.lookup(exact, chats(['Mom', 'Bob']), SCREEN, [...history, 'Tapped "Mom". [goal 4/6 done]'])).toBeUndefined();
    // Round trip keeps the generalised part.
    const back = PolicyMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(back.generalSize).toBe(m.generalSize);
    expect(back.lookup('Could you send Lena Fisher a message saying "See you at 8"?', chats(['Bob', 'Mom', 'Lena Fisher']), SCREEN, history)).toEqual(hit);
  });
});
