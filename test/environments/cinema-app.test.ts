import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  ALWAYS_OPEN,
  dayLabel,
  DEFAULT_SETTINGS,
  GIFT_CARD_PINS,
  giftCardErrors,
  initialCinemaState,
  movieByTitle,
  NOW_SHOWING_TITLES,
  onSale,
  REFUND_NAMES,
  REMINDERS,
  SEAT_PREF_NAMES,
  SHOW_DAYS,
  takenSeats,
  type CinemaState,
} from '../../environments/apps/cinema/state.js';

const { step, tap, exact, spec, check, open } = usePhone('cinema', 'ReelPass');

/** Taps a text field, moves to its end and deletes `n` characters. */
async function clear(s: ChromiumSession, sel: string, n: number): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
  for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
}
async function typeInto(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'type', text });
}
const state = async (s: ChromiumSession): Promise<CinemaState> => (await s.checkerState()).cinema as CinemaState;

describe('ReelPass movie ticket app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('cinema');
    expect(app?.title).toBe('ReelPass');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialCinemaState(3);
    expect(st).toEqual(initialCinemaState(3));
    expect(initialCinemaState(3)).not.toEqual(initialCinemaState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Tickets: every movie, day and showtime the DAG offers is on sale in a fresh session of any seed, and the best seats fit.
    expect(slot('home', 'movie')?.values).toEqual([...NOW_SHOWING_TITLES]);
    const days = slot('movie', 'show_day')?.values ?? [];
    expect(days).toEqual(SHOW_DAYS.filter((d) => d > 0).map(dayLabel));
    const times = slot('movie', 'showtime')?.dependsOn?.values ?? {};
    expect(Object.keys(times).sort()).toEqual([...NOW_SHOWING_TITLES].sort());
    for (const seed of [1, 2, 3, 7, 42]) {
      const s = initialCinemaState(seed);
      for (const [title, list] of Object.entries(times)) {
        const m = movieByTitle(title);
        expect(list, title).toEqual([...(ALWAYS_OPEN[m?.id ?? ''] ?? [])]);
        for (const d of SHOW_DAYS.filter((x) => x > 0)) for (const t of list) expect(onSale(s, m?.id ?? '', d, t), `${seed} ${title} ${dayLabel(d)} ${t}`).toBe(true);
        for (const t of list) expect(takenSeats(s, m?.id ?? '', 6, t).size, `${seed} ${title} ${t}`).toBeLessThan(96 - 16);
      }
    }
    // Cancellations: each movie and day names exactly one upcoming booking that can be cancelled.
    const cancelDays = slot('my_tickets', 'cancel_day')?.dependsOn?.values ?? {};
    expect(Object.keys(cancelDays).sort()).toEqual([...(slot('my_tickets', 'cancel_movie')?.values ?? [])].sort());
    for (const [title, list] of Object.entries(cancelDays))
      for (const day of list) {
        const found = st.bookings.filter((b) => b.movieId === movieByTitle(title)?.id && dayLabel(b.day) === day && b.status === 'upcoming');
        expect(found.map((b) => b.refundable), `${title} ${day}`).toEqual([true]);
      }
    expect(slot('my_tickets', 'cancel_movie')?.values).not.toContain('Second Serve');
    expect(slot('cancel_dialog', 'refund')?.values).toEqual([...REFUND_NAMES]);
    // Preferences: every value is a real option and differs from what the account starts with.
    for (const v of slot('preferences', 'seat_pref')?.values ?? []) expect(SEAT_PREF_NAMES).toContain(v);
    for (const v of slot('preferences', 'reminder')?.values ?? []) expect(REMINDERS).toContain(v);
    expect(slot('preferences', 'seat_pref')?.values).not.toContain(DEFAULT_SETTINGS.seat);
    expect(slot('preferences', 'reminder')?.values).not.toContain(DEFAULT_SETTINGS.reminder);
    // Gift cards: the form accepts every number, PIN and name the DAG offers.
    const pins = slot('gift_card_form', 'gift_pin')?.dependsOn?.values ?? {};
    for (const number of slot('gift_card_form', 'gift_card')?.values ?? []) {
      expect(pins[number], number).toEqual([GIFT_CARD_PINS[number.replace(/\s/g, '')]]);
      for (const name of slot('gift_card_form', 'gift_name')?.values ?? []) expect(giftCardErrors(st.giftCards, { number, pin: pins[number]?.[0] ?? '', name }), number).toEqual({});
    }
    const bt0 = { movie: 'Midnight Harbor', show_day: 'Sunday, June 8', showtime: '9:30 PM', tickets: '2' };
    expect(() => checkApp(st, spec('buy_tickets', { ...bt0, movie: 'Sundown Rally' }))).toThrow(/unknown movie/);
    expect(() => checkApp(st, spec('buy_tickets', { ...bt0, show_day: 'Sunday, June 9' }))).toThrow(/unknown show_day/);
    expect(() => checkApp(st, spec('buy_tickets', { ...bt0, showtime: '9:31 PM' }))).toThrow(/unknown showtime/);
    expect(() => checkApp(st, spec('buy_tickets', { ...bt0, showtime: '9:45 PM' }))).toThrow(/has no 9:45 PM showtime/);
    expect(() => checkApp(st, spec('buy_tickets', { ...bt0, tickets: 'two' }))).toThrow(/bad tickets/);
    expect(() => checkApp(st, spec('cancel_booking', { cancel_movie: 'Second Serve', cancel_day: 'Tuesday, June 3', refund: 'Wallet credit' }))).toThrow(/no cancellable booking/);
    expect(() => checkApp(st, spec('cancel_booking', { cancel_movie: 'Midnight Harvest', cancel_day: 'Saturday, June 7', refund: 'Wallet credit' }))).toThrow(/no cancellable booking/);
    expect(() => checkApp(st, spec('cancel_booking', { cancel_movie: 'Midnight Harbor', cancel_day: 'Saturday, June 7', refund: 'Cash' }))).toThrow(/unknown refund/);
    expect(() => checkApp(st, spec('set_preferences', { seat_pref: 'Balcony', reminder: '1 day before' }))).toThrow(/unknown seat_pref/);
    expect(() => checkApp(st, spec('set_preferences', { seat_pref: 'Aisle' }))).toThrow(/missing param "reminder"/);
    expect(() => checkApp(st, spec('add_gift_card', { gift_card: '6012 5540 1187 7710', gift_pin: '4410', gift_name: 'Birthday gift' }))).toThrow(/unknown gift_card/);
    expect(() => checkApp(st, spec('add_gift_card', { gift_card: '6012 5540 1187 3392', gift_pin: '8127', gift_name: 'Birthday gift' }))).toThrow(/is not the PIN/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('buy_tickets', bt0))).toEqual({ success: false, reason: 'no tickets were bought' });
    expect(checkApp(st, spec('cancel_booking', { cancel_movie: 'Midnight Harbor', cancel_day: 'Saturday, June 7', refund: 'Wallet credit' }))).toEqual({ success: false, reason: 'no booking was cancelled' });
    expect(checkApp(st, spec('set_preferences', { seat_pref: 'Aisle', reminder: '1 day before' }))).toEqual({ success: false, reason: 'the preferences were not changed' });
    expect(checkApp(st, spec('add_gift_card', { gift_card: '6012 5540 1187 3392', gift_pin: '4410', gift_name: 'Birthday gift' }))).toEqual({ success: false, reason: 'no gift card was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['cinema'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialCinemaState(1), q.checker).success).toBe(false);
    }
  });

  it('buys adult tickets through the movie list, the day strip, the ticket steppers and the seat map, only after Pay; the near-duplicate movie, another day, showtime or count, or a second booking fails', async () => {
    const s = await open();
    expect(await s.page.getByText('Now showing').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.mv[data-id="midnight-harbor"]'));
    expect(await s.page.getByText('Showtimes', { exact: true }).isVisible()).toBe(true);
    // The whole week fits the day strip.
    const sun = s.page.locator('.dstrip a[aria-label="Sunday, June 8"]');
    const box = await sun.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(412);
    await tap(s, sun);
    expect(await s.page.locator('.dayh').textContent()).toBe('Sunday, June 8');
    // A sold-out showtime is no link.
    for (const el of await s.page.locator('.times .time.off').all()) expect(await el.evaluate((x) => x.tagName)).toBe('DIV');
    await tap(s, s.page.locator('.times a.time[data-time="9:30 PM"]'));
    expect(await s.page.getByText('How many tickets?').isVisible()).toBe(true);
    expect(await s.page.locator('#n-adult').textContent()).toBe('1');
    await tap(s, s.page.locator('button[aria-label="Decrease Adult tickets"]'));
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    expect(await s.page.locator('#sum').textContent()).toBe('Choose at least 1 ticket');
    await tap(s, s.page.locator('button[aria-label="Increase Adult tickets"]'));
    await tap(s, s.page.locator('button[aria-label="Increase Adult tickets"]'));
    expect(await s.page.locator('#sum').textContent()).toBe('2 tickets · $31.00');
    await tap(s, s.page.locator('#go'));
    expect(await s.page.getByText('Choose your seats').isVisible()).toBe(true);
    const picked = await s.page.locator('.seat.sel').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.s));
    expect(picked).toHaveLength(2);
    expect(await s.page.locator('#go').isDisabled()).toBe(false);
    // Free one seat and take another: Continue waits until both seats are picked; a taken seat cannot be picked.
    await tap(s, s.page.locator(`.seat[data-s="${picked[1]}"]`));
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    expect(await s.page.locator('#sum').textContent()).toBe('Pick 1 more seat (1 of 2)');
    const taken = s.page.locator('.seat.taken').first();
    await tap(s, taken);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    const free = s.page.locator('.seat:not(.taken):not(.sel)').nth(3);
    const freeId = await free.getAttribute('data-s');
    await tap(s, free);
    expect(await s.page.locator('#go').isDisabled()).toBe(false);
    await tap(s, s.page.locator('#go'));
    expect(await s.page.getByText('Review and pay').isVisible()).toBe(true);
    expect(await s.page.locator('.kv').first().textContent()).toContain(freeId ?? '?');
    const bt = { movie: 'Midnight Harbor', show_day: 'Sunday, June 8', showtime: '9:30 PM', tickets: '2' };
    expect(await check(s, spec('buy_tickets', bt))).toBe(false);
    await tap(s, s.page.locator('#pay'));
    expect(await s.page.getByText("You're all set").isVisible()).toBe(true);
    expect(checkApp(await state(s), spec('buy_tickets', bt)).reason).toBe('bought 2 adult tickets for Midnight Harbor on Sunday, June 8 at 9:30 PM');
    expect((await state(s)).bookings.find((b) => !b.seeded)?.seats).toContain(freeId);
    expect(checkApp(await state(s), spec('buy_tickets', { ...bt, movie: 'Midnight Harvest', showtime: '9:45 PM' })).reason).toBe('tickets were bought for Midnight Harbor, expected Midnight Harvest');
    expect(checkApp(await state(s), spec('buy_tickets', { ...bt, show_day: 'Saturday, June 7' })).reason).toBe('the Midnight Harbor tickets are for Sunday, June 8, expected Saturday, June 7');
    expect(checkApp(await state(s), spec('buy_tickets', { ...bt, showtime: '7:00 PM' })).reason).toBe('the Midnight Harbor tickets are for the 9:30 PM showtime, expected 7:00 PM');
    expect(checkApp(await state(s), spec('buy_tickets', { ...bt, tickets: '3' })).reason).toBe('the Midnight Harbor booking has 2 adult tickets, expected 3 adult');
    // A second booking, for the near-duplicate movie with a child ticket, fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Movies"]'));
    await tap(s, s.page.locator('a.mv[data-id="midnight-harvest"]'));
    await tap(s, s.page.locator('.dstrip a[aria-label="Thursday, June 5"]'));
    await tap(s, s.page.locator('.times a.time[data-time="7:00 PM"]'));
    await tap(s, s.page.locator('button[aria-label="Increase Child tickets"]'));
    await tap(s, s.page.locator('#go'));
    await tap(s, s.page.locator('#go'));
    await tap(s, s.page.locator('#pay'));
    expect(await s.page.getByText("You're all set").isVisible()).toBe(true);
    expect(checkApp(await state(s), spec('buy_tickets', bt)).reason).toBe(
      '2 bookings were made ("Midnight Harbor on Sunday, June 8 at 9:30 PM", "Midnight Harvest on Thursday, June 5 at 7:00 PM"), expected one',
    );
    expect(checkApp(await state(s), spec('buy_tickets', { movie: 'Midnight Harvest', show_day: 'Thursday, June 5', showtime: '7:00 PM', tickets: '1' })).reason).toBe(
      'the Midnight Harvest booking has 1 adult, 1 child tickets, expected 1 adult',
    );
    await s.close();
  }, 120_000);

  it('cancels one booking with the refund picked in the dialog; a reward ticket cannot be cancelled, Keep tickets changes nothing, and the near-duplicate booking, another refund or a second cancellation fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="My tickets"]'));
    expect(await s.page.getByText('Your upcoming movies').isVisible()).toBe(true);
    expect(await s.page.getByText('Upcoming (6)').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.bk[data-code="RP-7TQ41"]'));
    expect(await s.page.getByText("can't be cancelled or refunded", { exact: false }).isVisible()).toBe(true);
    expect(await s.page.locator('button.outline').filter({ hasText: 'Cancel booking' }).count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.bk[data-code="RP-8R1V3"]'));
    expect(await s.page.getByText('Booking code').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    expect(await s.page.getByText('Cancel these tickets?').isVisible()).toBe(true);
    expect(await s.page.locator('#g-refund .opt[data-v="Refund to card"]').getAttribute('aria-checked')).toBe('true');
    await tap(s, exact(s, '#cancel .acts button', 'Keep tickets'));
    expect(await s.page.getByText('Cancel these tickets?').isVisible()).toBe(false);
    const sp = { cancel_movie: 'Midnight Harbor', cancel_day: 'Saturday, June 7', refund: 'Wallet credit' };
    expect(checkApp(await state(s), spec('cancel_booking', sp)).reason).toBe('no booking was cancelled');
    const wallet = (await state(s)).walletCents;
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    await tap(s, s.page.locator('#g-refund .opt[data-v="Wallet credit"]'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.getByText('Tickets cancelled').first().isVisible()).toBe(true);
    expect((await state(s)).walletCents).toBe(wallet + 3400);
    expect(checkApp(await state(s), spec('cancel_booking', sp)).reason).toBe('cancelled Midnight Harbor on Saturday, June 7 at 9:30 PM with Wallet credit');
    expect(checkApp(await state(s), spec('cancel_booking', { ...sp, cancel_day: 'Thursday, June 5' })).reason).toBe(
      'the Midnight Harbor booking on Thursday, June 5 was not cancelled (cancelled "Midnight Harbor on Saturday, June 7 at 9:30 PM" instead)',
    );
    expect(checkApp(await state(s), spec('cancel_booking', { ...sp, refund: 'Refund to card' })).reason).toBe(
      'the Midnight Harbor tickets on Saturday, June 7 were refunded as Wallet credit, expected Refund to card',
    );
    expect(await check(s, spec('cancel_booking', { ...sp, cancel_movie: 'Paper Lanterns' }))).toBe(false);
    // Cancelling the near-duplicate Midnight Harvest booking too fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="My tickets"]'));
    expect(await s.page.getByText('Upcoming (5)').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.bk[data-code="RP-9M2X7"]'));
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.getByText('Tickets cancelled').first().isVisible()).toBe(true);
    expect(checkApp(await state(s), spec('cancel_booking', { cancel_movie: 'Midnight Harvest', cancel_day: 'Thursday, June 5', refund: 'Refund to card' })).reason).toBe(
      '2 bookings were cancelled ("Midnight Harbor on Saturday, June 7 at 9:30 PM", "Midnight Harvest on Thursday, June 5 at 9:45 PM"), expected one',
    );
    await s.close();
  }, 120_000);

  it('saves the seat preference and reminder as they are picked; the near-duplicate seat option, another reminder or a switch flipped too fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Account"]'));
    expect(await s.page.getByText('ReelPass Rewards').first().isVisible()).toBe(true);
    await tap(s, s.page.locator('a.srow[href$="/account/preferences"]'));
    expect(await s.page.getByText('Seat preference', { exact: true }).first().isVisible()).toBe(true);
    const sp = { seat_pref: 'Back rows', reminder: '3 hours before' };
    await tap(s, s.page.locator('#r-seat'));
    await tap(s, exact(s, '#seatdlg .opt .t', 'Front rows'));
    expect(await s.page.locator('#v-seat').textContent()).toBe('Front rows');
    expect(checkApp(await state(s), spec('set_preferences', sp)).reason).toBe('the seat preference is Front rows, expected Back rows');
    await tap(s, s.page.locator('#r-seat'));
    await tap(s, exact(s, '#seatdlg .opt .t', 'Back rows'));
    await tap(s, s.page.locator('#r-reminder'));
    await tap(s, exact(s, '#remdlg .opt .t', '3 hours before'));
    expect(await s.page.locator('#v-reminder').textContent()).toBe('3 hours before');
    expect(checkApp(await state(s), spec('set_preferences', sp)).reason).toBe('set the seat preference to Back rows and the showtime reminder to 3 hours before');
    expect(checkApp(await state(s), spec('set_preferences', { ...sp, seat_pref: 'Front rows' })).reason).toBe('the seat preference is Back rows, expected Front rows');
    expect(checkApp(await state(s), spec('set_preferences', { ...sp, reminder: '2 hours before' })).reason).toBe('the showtime reminder is 3 hours before, expected 2 hours before');
    await tap(s, s.page.locator('.srow[data-k="offers"]'));
    expect(await s.page.locator('.srow[data-k="offers"]').getAttribute('aria-checked')).toBe('true');
    expect(checkApp(await state(s), spec('set_preferences', sp)).reason).toBe('the seat preference and reminder were set but Offers and news to On changed too');
    await tap(s, s.page.locator('.srow[data-k="offers"]'));
    expect(await check(s, spec('set_preferences', sp))).toBe(true);
    // Saved: the Account tab shows them, and the seat map picks back rows.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.getByText('Seats: Back rows · Reminder: 3 hours before').isVisible()).toBe(true);
    await tap(s, s.page.locator('.bnav a[aria-label="Movies"]'));
    await tap(s, s.page.locator('a.mv[data-id="paper-lanterns"]'));
    await tap(s, s.page.locator('.dstrip a[aria-label="Tuesday, June 3"]'));
    await tap(s, s.page.locator('.times a.time[data-time="1:30 PM"]'));
    await tap(s, s.page.locator('#go'));
    const rows = await s.page.locator('.seat.sel').evaluateAll((els) => els.map((e) => ((e as HTMLElement).dataset.s ?? '')[0]));
    expect(rows.length).toBe(1);
    expect(['E', 'F', 'G', 'H']).toContain(rows[0]);
    expect(await s.page.getByText('going by your seat preference (Back rows)', { exact: false }).isVisible()).toBe(true);
    await s.close();
  }, 120_000);

  it('validates the Add gift card form field by field, adds one card under its name, and the near-duplicate card, another name or a second card fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Wallet"]'));
    expect(await s.page.getByText('Gift cards', { exact: true }).isVisible()).toBe(true);
    await tap(s, s.page.locator('a.outline[href$="/wallet/add"]'));
    await tap(s, exact(s, 'button.primary', 'Add to wallet'));
    expect(await s.page.getByText('Enter the card number').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter the PIN').isVisible()).toBe(true);
    // The card already in the wallet, then the near-duplicate card's PIN.
    await typeInto(s, '#number', '6012 5540 1187 7710');
    await typeInto(s, '#pin', '123');
    await tap(s, exact(s, 'button.primary', 'Add to wallet'));
    expect(await s.page.getByText('This card is already in your wallet').isVisible()).toBe(true);
    expect(await s.page.getByText('The PIN has 4 digits').isVisible()).toBe(true);
    await clear(s, '#number', 19);
    expect(await s.page.locator('#number').inputValue()).toBe('');
    await step(s, { action: 'type', text: '6012 5540 1187 3392' });
    await clear(s, '#pin', 3);
    await step(s, { action: 'type', text: '8127' });
    await typeInto(s, '#name', 'Birthday gift');
    await tap(s, exact(s, 'button.primary', 'Add to wallet'));
    expect(await s.page.getByText("We couldn't find a gift card with that number and PIN. Check both and try again.").isVisible()).toBe(true);
    await clear(s, '#pin', 4);
    await step(s, { action: 'type', text: '4410' });
    const sp = { gift_card: '6012 5540 1187 3392', gift_pin: '4410', gift_name: 'Birthday gift' };
    expect(await check(s, spec('add_gift_card', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Add to wallet'));
    expect(await s.page.getByText('Gift card added').first().isVisible()).toBe(true);
    expect(await s.page.locator('.gc[data-last4="3392"]').textContent()).toContain('$50.00');
    expect(checkApp(await state(s), spec('add_gift_card', sp)).reason).toBe('added gift card •••• 3392 as "Birthday gift"');
    expect(checkApp(await state(s), spec('add_gift_card', { ...sp, gift_card: '6012 5540 1187 3329', gift_pin: '8127' })).reason).toBe(
      'the gift card added ends in 3392, expected the card ending in 3329',
    );
    expect(checkApp(await state(s), spec('add_gift_card', { ...sp, gift_name: 'From Grandma' })).reason).toBe('gift card •••• 3392 was saved as "Birthday gift", expected "From Grandma"');
    // A second card, typed without spaces and left unnamed, fails the task.
    await tap(s, s.page.locator('a.outline[href$="/wallet/add"]'));
    await typeInto(s, '#number', '6012778100452216');
    await typeInto(s, '#pin', '0931');
    await tap(s, exact(s, 'button.primary', 'Add to wallet'));
    expect(await s.page.getByText('Gift card added').first().isVisible()).toBe(true);
    expect(checkApp(await state(s), spec('add_gift_card', sp)).reason).toBe('2 gift cards were added ("•••• 3392", "•••• 2216"), expected one');
    expect(checkApp(await state(s), spec('add_gift_card', { gift_card: '6012 7781 0045 2216', gift_pin: '0931', gift_name: 'Office raffle' })).reason).toBe(
      'gift card •••• 2216 was saved as "Gift card", expected "Office raffle"',
    );
    await s.close();
  }, 120_000);
});
