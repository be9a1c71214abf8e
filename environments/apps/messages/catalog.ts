/**
 * The Messages app's fixed people and conversation histories. Near-duplicates on purpose:
 * Sam Taylor / Sam Tyler, Lena Fischer / Lena Fisher.
 */
import { sameText } from '../mobile-kit.js';

export interface ThreadSeed {
  id: string;
  contact: string;
  /** Oldest first; `me` marks the phone owner's messages. */
  messages: { from: 'me' | 'them'; text: string }[];
}

const t = (contact: string, ...lines: string[]): ThreadSeed => ({
  id: contact.toLowerCase().replace(/\s+/g, '_'),
  contact,
  messages: lines.map((l) => (l.startsWith('> ') ? { from: 'me', text: l.slice(2) } : { from: 'them', text: l })),
});

export const THREADS: readonly ThreadSeed[] = [
  t('Sam Taylor', 'Are we still on for Saturday?', '> Yes, 10am at the park', 'Great, I will bring the ball'),
  t('Sam Tyler', 'Your parcel is at my place', '> Thanks, I will pick it up tonight'),
  t('Lena Fischer', 'Can you send me the slides?', '> Sure, give me a minute', 'Got them, thanks!'),
  t('Lena Fisher', 'Happy birthday!', '> Thank you so much'),
  t('Mom', 'Call me when you land', '> Landed, will call soon', 'Safe travels home'),
  t('David Okoro', 'Lunch next week?', '> Tuesday works for me'),
  t('Priya Raman', 'The meeting moved to 3pm', '> Noted, thanks'),
  t('Carlos Mendes', 'Did you see the match?', 'What a goal in the last minute'),
  t('Hana Sato', '> Dinner on Friday?', 'Yes! Where?', '> The Italian place on Main Street'),
  t('Gym Buddy Alex', 'Leg day tomorrow at 7', '> I will be there'),
  t('Ruth Bell', 'Thanks for the book recommendation', 'I finished it in two days'),
  t('Building Manager', 'Water will be off on Thursday morning', '> Thanks for letting us know'),
  t('Nora Quinn', 'Can I borrow your ladder?', '> Of course, come by anytime'),
];

/** People you can start a new conversation with (everyone with a thread, plus a few without). */
export const PEOPLE: readonly string[] = [...THREADS.map((x) => x.contact), 'Olivia Brown', 'Marcus Reed', 'Tess Walker'].sort((a, b) =>
  a.localeCompare(b),
);

/** Message texts for send_message tasks. */
export const TEXTS = ['Running 10 minutes late', 'See you at the station', 'Can you call me back?', 'Thanks for dinner tonight'] as const;

export const personByName = (name: string): string | undefined => PEOPLE.find((p) => sameText(p, name));
