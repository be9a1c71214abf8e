import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  ARRIVALS,
  bookableRooms,
  CHECKIN_DAYS,
  checkinOpen,
  dayLabel,
  initialHotelState,
  PAST_STAYS,
  plateError,
  reviewErrors,
  SEEDED_BOOKINGS,
  type HotelState,
} from '../../environments/apps/hotel/state.js';

const { step, tap, exact, spec, check, open } = usePhone('hotel', 'Lodgerra');

const state = async (s: ChromiumSession): Promise<HotelState> => (await s.checkerState()).hotel as HotelState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
/** Taps a text field and types `text`. */
async function type(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'type', text });
}

describe('Lodgerra hotel booking app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('hotel');
    expect(app?.title).toBe('Lodgerra');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'hotel')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'utility'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialHotelState(3);
    expect(st).toEqual(initialHotelState(3));
    expect(initialHotelState(3)).not.toEqual(initialHotelState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialHotelState(seed);
      // Every hotel and room the DAG offers can be booked.
      const rooms = slot('hotel', 'room')?.dependsOn?.values ?? {};
      expect(Object.keys(rooms).sort()).toEqual([...(slot('explore', 'hotel')?.values ?? [])].sort());
      for (const [hotel, names] of Object.entries(rooms)) {
        const h = s.hotels.find((x) => x.name === hotel);
        expect(h, hotel).toBeDefined();
        for (const n of names) expect(bookableRooms(h!).map((r) => r.name), `${hotel} ${n}`).toContain(n);
      }
      // Online check-in: every hotel/day pair the DAG offers is open.
      const days = slot('trips', 'checkin_date')?.dependsOn?.values ?? {};
      for (const [hotel, ds] of Object.entries(days))
        for (const d of ds) {
          const b = s.bookings.find((x) => s.hotels.find((h) => h.id === x.hotelId)?.name === hotel && dayLabel(x.checkin) === d);
          expect(b && checkinOpen(b), `${hotel} ${d}`).toBe(true);
        }
      expect(s.bookings.filter(checkinOpen)).toHaveLength(Object.values(days).flat().length);
    }
    const labels = CHECKIN_DAYS.map(dayLabel);
    for (const d of slot('book_dates', 'checkin_date')?.values ?? []) expect(labels).toContain(d);
    for (const a of slot('checkin_form', 'arrival')?.values ?? []) expect(ARRIVALS).toContain(a);
    for (const p of slot('checkin_form', 'plate')?.values ?? []) expect(plateError(p), p).toBe('');
    for (const t of slot('review_form', 'review_title')?.values ?? []) expect(reviewErrors({ stars: 3, title: t }), t).toEqual({});
    // Cancellations: every hotel/day pair names exactly one booking, and every booking is offered.
    const cancelDays = slot('trips', 'cancel_date')?.dependsOn?.values ?? {};
    expect(Object.values(cancelDays).flat().length).toBe(SEEDED_BOOKINGS.length);
    for (const [hotel, ds] of Object.entries(cancelDays))
      for (const d of ds) expect(SEEDED_BOOKINGS.filter(([n, , day]) => n === hotel && dayLabel(day) === d), `${hotel} ${d}`).toHaveLength(1);
    // Reviews: every past stay not reviewed yet, and only those.
    expect([...(slot('past_trips', 'review_hotel')?.values ?? [])].sort()).toEqual(PAST_STAYS.filter(([, , , , r]) => !r).map(([n]) => n).sort());
    const bk = { hotel: 'Harbor View Hotel', room: 'Deluxe King', checkin_date: 'Friday, June 13', nights: '3' };
    expect(() => checkApp(st, spec('book_stay', { ...bk, hotel: 'Harbour View Hotel' }))).toThrow(/unknown hotel/);
    expect(() => checkApp(st, spec('book_stay', { ...bk, room: 'King Suite' }))).toThrow(/no bookable room/);
    expect(() => checkApp(st, spec('book_stay', { ...bk, checkin_date: 'Friday, June 14' }))).toThrow(/unknown checkin_date/);
    expect(() => checkApp(st, spec('book_stay', { ...bk, nights: 'three' }))).toThrow(/bad nights/);
    expect(() => checkApp(st, spec('cancel_booking', { cancel_hotel: 'Harborview Suites', cancel_date: 'Friday, June 6' }))).toThrow(/no booking at Harborview Suites/);
    expect(() => checkApp(st, spec('online_checkin', { checkin_hotel: 'Harbor View Hotel', checkin_date: 'Thursday, July 3', arrival: '6:00 PM', plate: '8TRK512' }))).toThrow(/not open/);
    expect(() => checkApp(st, spec('online_checkin', { checkin_hotel: 'Harbor View Hotel', checkin_date: 'Friday, June 6', arrival: 'Noon', plate: '8TRK512' }))).toThrow(/unknown arrival/);
    expect(() => checkApp(st, spec('online_checkin', { checkin_hotel: 'Harbor View Hotel', checkin_date: 'Friday, June 6', arrival: '6:00 PM' }))).toThrow(/missing param "plate"/);
    expect(() => checkApp(st, spec('write_review', { review_hotel: 'The Linden House', stars: '4', review_title: 'Nice' }))).toThrow(/already reviewed/);
    expect(() => checkApp(st, spec('write_review', { review_hotel: 'Pike & Pine Hotel', stars: '4', review_title: 'Nice' }))).toThrow(/no past stay/);
    expect(() => checkApp(st, spec('write_review', { review_hotel: 'Casa Solana', stars: '6', review_title: 'Nice' }))).toThrow(/unknown stars/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('book_stay', bk))).toEqual({ success: false, reason: 'no stay was booked' });
    expect(checkApp(st, spec('cancel_booking', { cancel_hotel: 'Harbor View Hotel', cancel_date: 'Friday, June 6' }))).toEqual({
      success: false,
      reason: 'the Harbor View Hotel booking on Friday, June 6 is still booked',
    });
    expect(checkApp(st, spec('online_checkin', { checkin_hotel: 'Casa Serena', checkin_date: 'Tuesday, June 3', arrival: '6:00 PM', plate: '8TRK512' }))).toEqual({
      success: false,
      reason: 'no online check-in was completed',
    });
    expect(checkApp(st, spec('write_review', { review_hotel: 'Casa Solana', stars: '4', review_title: 'Quiet and spotless' }))).toEqual({ success: false, reason: 'no review was submitted' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      for (const t of task.templates) expect(t).toContain('Lodgerra');
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['hotel'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialHotelState(1), q.checker).success).toBe(false);
    }
  });

  it('shows every launcher icon without scrolling and opens from its icon', async () => {
    const s = await open(1);
    await step(s, { action: 'system_button', button: 'Home' });
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    const icons = s.page.locator('a.app');
    expect(await icons.count()).toBe(BUILT_IN_APPS.length + DECORATIVE_APPS.length);
    const { vw, vh, sh } = (await s.page.evaluate('({vw:innerWidth,vh:innerHeight,sh:document.documentElement.scrollHeight})')) as { vw: number; vh: number; sh: number };
    expect(sh).toBeLessThanOrEqual(vh);
    for (let i = 0; i < (await icons.count()); i++) {
      const box = await icons.nth(i).boundingBox();
      expect(box, `icon ${i}`).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(28);
      expect(box!.y + box!.height, (await icons.nth(i).getAttribute('aria-label')) ?? `icon ${i}`).toBeLessThanOrEqual(vh);
      expect(box!.x + box!.width).toBeLessThanOrEqual(vw);
    }
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Lodgerra"]')) });
    expect(await visible(s, 'Find your next stay')).toBe(true);
    await s.close();
  }, 60_000);

  it('books a room for some nights from the calendar, only after Confirm booking; the near-duplicate hotel or room, another day, another length or a second stay fails', async () => {
    const s = await open(1);
    expect(await visible(s, 'Find your next stay')).toBe(true);
    await tap(s, s.page.locator('a.ht[data-hotel="Harbor View Hotel"]'));
    expect(await visible(s, 'Choose your room')).toBe(true);
    // The suite is sold out.
    expect(await s.page.locator('.rm[data-room-name="King Suite"] .out').textContent()).toBe('Sold out');
    await tap(s, s.page.locator('.rm[data-room-name="Deluxe King"] button'));
    expect(await visible(s, 'Check-in date')).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    expect(await s.page.locator('#n-v').textContent()).toBe('1');
    await tap(s, s.page.locator('#n-plus'));
    await tap(s, s.page.locator('#n-plus'));
    expect(await s.page.locator('#n-v').textContent()).toBe('3');
    await tap(s, s.page.locator('.days button[aria-label="Friday, June 13"]'));
    expect(await s.page.locator('#sum').textContent()).toMatch(/^Fri, Jun 13 – Mon, Jun 16 · 3 nights · \$[\d.]+ total$/);
    await tap(s, s.page.locator('#go'));
    expect(await visible(s, 'Review your stay')).toBe(true);
    expect(await exact(s, '.kv .v', '3').isVisible()).toBe(true);
    const sp = { hotel: 'Harbor View Hotel', room: 'Deluxe King', checkin_date: 'Friday, June 13', nights: '3' };
    expect(await reason(s, 'book_stay', sp)).toBe('no stay was booked');
    await tap(s, exact(s, 'button.primary', 'Confirm booking'));
    expect(await visible(s, 'Booking confirmed')).toBe(true);
    expect(await reason(s, 'book_stay', sp)).toBe('booked Harbor View Hotel: Deluxe King, 3 nights from Friday, June 13');
    expect(await reason(s, 'book_stay', { ...sp, hotel: 'Harborview Suites', room: 'Studio Suite' })).toBe('the stay was booked at Harbor View Hotel, expected Harborview Suites');
    expect(await reason(s, 'book_stay', { ...sp, room: 'Standard King' })).toBe('the Harbor View Hotel stay is in a Deluxe King, expected a Standard King');
    expect(await reason(s, 'book_stay', { ...sp, checkin_date: 'Saturday, June 14' })).toBe('the Harbor View Hotel stay checks in on Friday, June 13, expected Saturday, June 14');
    expect(await reason(s, 'book_stay', { ...sp, nights: '2' })).toBe('the Harbor View Hotel stay is 3 nights, expected 2 nights');
    // A second stay (July, below the fold) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Explore"]'));
    await tap(s, s.page.locator('a.ht[data-hotel="Casa Solana"]'));
    await tap(s, s.page.locator('.rm[data-room-name="Standard King"] button'));
    await tap(s, s.page.locator('#n-plus'));
    await tap(s, s.page.locator('.days button[aria-label="Saturday, July 12"]'));
    await tap(s, s.page.locator('#go'));
    await tap(s, exact(s, 'button.primary', 'Confirm booking'));
    expect(await visible(s, 'Booking confirmed')).toBe(true);
    expect(await reason(s, 'book_stay', sp)).toBe(
      '2 stays were booked ("Harbor View Hotel: Deluxe King, 3 nights from Friday, June 13", "Casa Solana: Standard King, 2 nights from Saturday, July 12"), expected one',
    );
    await s.close();
  }, 120_000);

  it('cancels a booking only after a reason is picked in the dialog; the other booking at the same hotel or a second cancellation fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    expect(await visible(s, 'Upcoming (7)')).toBe(true);
    await tap(s, s.page.locator('a.bk[data-hotel="Harbor View Hotel"][data-date="Thursday, July 3"]'));
    expect(await visible(s, 'Booking details')).toBe(true);
    expect(await exact(s, '.kv .v', 'Standard King').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    expect(await visible(s, 'Why are you cancelling?')).toBe(true);
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.locator('#cerr').textContent()).toBe('Choose a reason');
    await tap(s, exact(s, '#cancel button', 'Keep booking'));
    const sp = { cancel_hotel: 'Harbor View Hotel', cancel_date: 'Thursday, July 3' };
    expect(await reason(s, 'cancel_booking', sp)).toBe('the Harbor View Hotel booking on Thursday, July 3 is still booked');
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    await tap(s, exact(s, '#cancel .opt .t', 'Change of plans'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await visible(s, 'Booking cancelled')).toBe(true);
    expect(await reason(s, 'cancel_booking', sp)).toBe('cancelled Harbor View Hotel: Standard King, 3 nights from Thursday, July 3');
    expect(await reason(s, 'cancel_booking', { ...sp, cancel_date: 'Friday, June 6' })).toBe(
      'the Harbor View Hotel booking on Friday, June 6 is still booked (cancelled "Harbor View Hotel: Standard King, 3 nights from Thursday, July 3" instead)',
    );
    expect(await check(s, spec('cancel_booking', { cancel_hotel: 'Harborview Suites', cancel_date: 'Thursday, June 19' }))).toBe(false);
    // Tomorrow's stay loses its first night; cancelling it too fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    expect(await visible(s, 'Upcoming (6)')).toBe(true);
    await tap(s, s.page.locator('a.bk[data-hotel="Casa Serena"]'));
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    expect(await s.page.getByText('Free cancellation has ended, so the first night is charged.', { exact: false }).isVisible()).toBe(true);
    await tap(s, exact(s, '#cancel .opt .t', 'Booked by mistake'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await visible(s, 'Booking cancelled')).toBe(true);
    expect(await reason(s, 'cancel_booking', sp)).toBe('the Harbor View Hotel booking on Thursday, July 3 was cancelled but "Casa Serena: Courtyard King, 2 nights from Tuesday, June 3" too');
    await s.close();
  }, 120_000);

  it('checks in online with an arrival time and a plate; a stay not open yet has no Check in online, and another time, plate or booking fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    // The later Harbor View Hotel booking is not open for check-in yet.
    await tap(s, s.page.locator('a.bk[data-hotel="Harbor View Hotel"][data-date="Thursday, July 3"]'));
    expect(await s.page.getByText('Online check-in opens Sat, Jun 28', { exact: false }).isVisible()).toBe(true);
    expect(await s.page.locator('a.primary').filter({ hasText: 'Check in online' }).count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.bk[data-hotel="Harbor View Hotel"][data-date="Friday, June 6"]'));
    await tap(s, exact(s, 'a.primary', 'Check in online'));
    expect(await visible(s, 'Estimated arrival time')).toBe(true);
    await type(s, '#plate', 'BGN#4471');
    await tap(s, exact(s, 'button.primary', 'Complete check-in'));
    expect(await s.page.locator('#e-arrival').textContent()).toBe('Choose an arrival time');
    expect(await s.page.locator('#e-plate').textContent()).toBe('Enter the plate as it appears on the car, like 8TRK512');
    await tap(s, s.page.locator('#f-arrival .pick'));
    await tap(s, exact(s, '#arrivals .opt', '6:00 PM'));
    expect(await s.page.locator('#arrival-v').textContent()).toBe('6:00 PM');
    await tap(s, s.page.locator('#plate'));
    for (let i = 0; i < 8; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'type', text: 'bgn 4471' });
    const sp = { checkin_hotel: 'Harbor View Hotel', checkin_date: 'Friday, June 6', arrival: '6:00 PM', plate: 'BGN 4471' };
    expect(await reason(s, 'online_checkin', sp)).toBe('no online check-in was completed');
    await tap(s, exact(s, 'button.primary', 'Complete check-in'));
    expect(await visible(s, "You're checked in")).toBe(true);
    expect(await reason(s, 'online_checkin', sp)).toBe('checked in for Harbor View Hotel: Deluxe King, 2 nights from Friday, June 6, arriving 6:00 PM, plate BGN 4471');
    expect(await check(s, spec('online_checkin', { ...sp, plate: 'BGN4471' }))).toBe(true);
    expect(await reason(s, 'online_checkin', { ...sp, arrival: '7:00 PM' })).toBe('the Harbor View Hotel check-in gives an arrival time of 6:00 PM, expected 7:00 PM');
    expect(await reason(s, 'online_checkin', { ...sp, plate: 'BGN 4417' })).toBe('the Harbor View Hotel check-in gives the licence plate "BGN 4471", expected "BGN 4417"');
    expect(await reason(s, 'online_checkin', { ...sp, checkin_hotel: 'Casa Serena', checkin_date: 'Tuesday, June 3' })).toBe(
      'the Casa Serena stay on Tuesday, June 3 is not checked in (checked in "Harbor View Hotel: Deluxe King, 2 nights from Friday, June 6" instead)',
    );
    expect(await s.page.locator('a.primary').filter({ hasText: 'Check in online' }).count()).toBe(0);
    await s.close();
  }, 120_000);

  it('reviews a past stay after a rating and a title; the near-duplicate hotel, another rating or title, or a second review fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    await tap(s, exact(s, '.seg a', 'Past'));
    expect(await visible(s, 'Completed stays')).toBe(true);
    // The Linden House was reviewed already.
    await tap(s, s.page.locator('a.bk[data-hotel="The Linden House"]'));
    expect(await visible(s, 'Lovely garden room')).toBe(true);
    expect(await s.page.locator('a.primary').filter({ hasText: 'Write a review' }).count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.bk[data-hotel="Harborview Suites"]'));
    expect(await visible(s, 'Stay details')).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Write a review'));
    await tap(s, exact(s, 'button.primary', 'Submit review'));
    expect(await s.page.locator('#e-stars').textContent()).toBe('Choose a star rating');
    expect(await s.page.locator('#e-title').textContent()).toBe('Add a title');
    await tap(s, s.page.locator('.stars button[aria-label="4 stars"]'));
    expect(await s.page.locator('#stars-w').textContent()).toBe('Very good');
    await type(s, '#title', 'Quiet and spotless');
    const sp = { review_hotel: 'Harborview Suites', stars: '4', review_title: 'Quiet and spotless' };
    expect(await reason(s, 'write_review', sp)).toBe('no review was submitted');
    await tap(s, exact(s, 'button.primary', 'Submit review'));
    expect(await visible(s, 'Thanks for your review')).toBe(true);
    expect(await reason(s, 'write_review', sp)).toBe('reviewed Harborview Suites (Friday, April 25): 4 stars, "Quiet and spotless"');
    expect(await reason(s, 'write_review', { ...sp, review_hotel: 'Harbor View Hotel' })).toBe(
      'the Harbor View Hotel stay was not reviewed (reviewed "Harborview Suites (Friday, April 25)" instead)',
    );
    expect(await reason(s, 'write_review', { ...sp, stars: '5' })).toBe('the Harborview Suites review gives 4 stars, expected 5');
    expect(await reason(s, 'write_review', { ...sp, review_title: 'Perfect weekend base' })).toBe('the Harborview Suites review is titled "Quiet and spotless", expected "Perfect weekend base"');
    // A second review fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    await tap(s, exact(s, '.seg a', 'Past'));
    await tap(s, s.page.locator('a.bk[data-hotel="Casa Solana"]'));
    await tap(s, exact(s, 'a.primary', 'Write a review'));
    await tap(s, s.page.locator('.stars button[aria-label="2 stars"]'));
    await type(s, '#title', 'Friendly staff, noisy street');
    await tap(s, exact(s, 'button.primary', 'Submit review'));
    expect(await visible(s, 'Thanks for your review')).toBe(true);
    expect(await reason(s, 'write_review', sp)).toBe('the Harborview Suites stay was reviewed but "Casa Solana (Thursday, February 20)" too');
    await s.close();
  }, 120_000);
});
