import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  airportByName,
  BAG_DEFAULT,
  BAG_WEIGHTS,
  checkinOpen,
  dayByLabel,
  departureTimes,
  FARE_NAMES,
  initialFlightsState,
  isSeat,
  KEPT_FREE,
  MAX_BAGS,
  paxLeg,
  personByName,
  seatsTaken,
  SEEDED_BAGS,
  SEEDED_TRIPS,
  tripTo,
  type FlightsState,
} from '../../environments/apps/flights/state.js';

const { step, tap, exact, spec, check, open } = usePhone('flights', 'Zephra');

const state = async (s: ChromiumSession): Promise<FlightsState> => (await s.checkerState()).flights as FlightsState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
/** Scrolls an option of a full-screen picker list into view (as a swipe in the list would), then taps it. */
async function pick(s: ChromiumSession, sel: string): Promise<void> {
  await s.page.locator(sel).scrollIntoViewIfNeeded();
  await tap(s, s.page.locator(sel));
}
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const text = async (s: ChromiumSession, sel: string): Promise<string> => ((await s.page.locator(sel).first().textContent()) ?? '').trim();
/** Opens a trip from the Trips tab by its destination. */
async function openTrip(s: ChromiumSession, to: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
  expect(await visible(s, 'Upcoming')).toBe(true);
  await tap(s, s.page.locator(`a.tr[data-to="${to}"]`));
  expect(await visible(s, 'Manage booking')).toBe(true);
}
/** Book tab: One way to `code` on day offset `day`, then Search flights. */
async function search(s: ChromiumSession, code: string, day: number, oneWay = true): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Book"]'));
  expect(await visible(s, 'Search flights')).toBe(true);
  if (oneWay) await tap(s, exact(s, '#g-trip button', 'One way'));
  await tap(s, s.page.locator('#to-btn'));
  await pick(s, `#to-list .ap[data-v="${code}"]`);
  await tap(s, s.page.locator('#day-btn'));
  await pick(s, `#depcal .cd[data-d="${day}"]`);
}

describe('Zephra airline app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('flights');
    expect(app?.title).toBe('Zephra');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'flights')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'school'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialFlightsState(3);
    expect(st).toEqual(initialFlightsState(3));
    expect(initialFlightsState(3)).not.toEqual(initialFlightsState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Booking: real destinations, each time on that destination's timetable, dates in the calendar and never the default (tomorrow).
    const times = slot('results', 'book_time')?.dependsOn?.values ?? {};
    expect(Object.keys(times).sort()).toEqual([...(slot('book', 'book_to')?.values ?? [])].sort());
    for (const [to, values] of Object.entries(times)) {
      const ap = airportByName(to);
      expect(ap?.name, to).toBe(to);
      for (const v of values) expect(departureTimes(ap!.code)).toContain(v);
    }
    for (const d of slot('book', 'book_date')?.values ?? []) {
      const day = dayByLabel(d);
      expect(day, d).toBeDefined();
      expect(day).toBeGreaterThan(1);
    }
    expect(slot('fares', 'book_fare')?.values).toEqual([...FARE_NAMES]);
    // Seats: a passenger on the trip's outbound flight, a seat that is free there on every seed and not theirs already.
    const seatPax = slot('seat_map', 'seat_passenger')?.dependsOn?.values ?? {};
    expect(Object.keys(seatPax).sort()).toEqual([...(slot('trips', 'seat_to')?.values ?? [])].sort());
    for (const seat of slot('seat_map', 'seat_number')?.values ?? []) {
      expect(isSeat(seat) && KEPT_FREE.includes(seat), seat).toBe(true);
      for (let seed = 1; seed <= 20; seed++) {
        const s0 = initialFlightsState(seed);
        for (const [to, names] of Object.entries(seatPax)) {
          const leg = tripTo(s0, to)!.legs[0]!;
          expect(seatsTaken(leg).has(seat), `${seed} ${to} ${seat}`).toBe(false);
          for (const n of names) expect(paxLeg(leg, personByName(s0, n)!.id), `${to} ${n}`).toBeDefined();
        }
      }
    }
    // Bags: a passenger on the trip with room for another bag, a weight the sheet offers other than its default.
    const bagPax = slot('bags', 'bag_passenger')?.dependsOn?.values ?? {};
    expect(Object.keys(bagPax).sort()).toEqual([...(slot('trips', 'bag_to')?.values ?? [])].sort());
    for (const [to, names] of Object.entries(bagPax))
      for (const n of names) {
        expect(SEEDED_TRIPS[to], `${to} ${n}`).toContain(n);
        expect(SEEDED_BAGS.some(([t, p]) => t === to && p === n), `${to} ${n} has a bag already`).toBe(false);
        expect(tripTo(st, to)!.bags.filter((b) => b.pax === personByName(st, n)!.id).length).toBeLessThan(MAX_BAGS);
      }
    for (const w of slot('bag_sheet', 'bag_weight')?.values ?? []) expect(BAG_WEIGHTS.includes(w) && w !== BAG_DEFAULT, w).toBe(true);
    // Check-in: flights open for check-in, adults on them.
    const ciPax = slot('checkin', 'checkin_passenger')?.dependsOn?.values ?? {};
    expect(Object.keys(ciPax).sort()).toEqual([...(slot('home', 'checkin_to')?.values ?? [])].sort());
    for (const [to, names] of Object.entries(ciPax)) {
      expect(checkinOpen(tripTo(st, to)!.legs[0]!), to).toBe(true);
      for (const n of names) {
        expect(SEEDED_TRIPS[to]).toContain(n);
        expect(personByName(st, n)?.childAge, n).toBeUndefined();
      }
    }
    const bk0 = { book_to: 'Paris Orly', book_date: 'Monday, June 16', book_time: '8:15 AM', book_fare: 'Classic' };
    expect(() => checkApp(st, spec('book_flight', { ...bk0, book_to: 'Paris Beauvais' }))).toThrow(/unknown book_to/);
    expect(() => checkApp(st, spec('book_flight', { ...bk0, book_time: '8:15 PM' }))).toThrow(/unknown book_time/);
    expect(() => checkApp(st, spec('book_flight', { ...bk0, book_date: 'Sunday, June 16' }))).toThrow(/unknown book_date/);
    expect(() => checkApp(st, spec('book_flight', { ...bk0, book_fare: 'Business' }))).toThrow(/unknown book_fare/);
    expect(() => checkApp(st, spec('choose_seat', { seat_to: 'Lisbon', seat_passenger: 'Ida', seat_number: '14C' }))).toThrow(/Ida is not on the trip to Lisbon/);
    expect(() => checkApp(st, spec('choose_seat', { seat_to: 'Lisbon', seat_passenger: 'Oskar', seat_number: '22B' }))).toThrow(/already sits in 22B/);
    expect(() => checkApp(st, spec('choose_seat', { seat_to: 'Madrid', seat_passenger: 'Oskar', seat_number: '14C' }))).toThrow(/unknown seat_to/);
    expect(() => checkApp(st, spec('choose_seat', { seat_to: 'Lisbon', seat_passenger: 'Oskar', seat_number: '31A' }))).toThrow(/unknown seat_number/);
    expect(() => checkApp(st, spec('add_bag', { bag_to: 'Lisbon', bag_passenger: 'Freya', bag_weight: '25 kg' }))).toThrow(/unknown bag_weight/);
    expect(() => checkApp(st, spec('check_in', { checkin_to: 'Lisbon', checkin_passenger: 'Freya' }))).toThrow(/check-in is not open/);
    expect(() => checkApp(st, spec('check_in', { checkin_to: 'Berlin', checkin_passenger: 'Oskar' }))).toThrow(/Oskar is not on the trip to Berlin/);
    expect(() => checkApp(st, spec('check_in', { checkin_to: 'Berlin' }))).toThrow(/missing param "checkin_passenger"/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('book_flight', bk0))).toEqual({ success: false, reason: 'no flight was booked' });
    expect(checkApp(st, spec('choose_seat', { seat_to: 'Reykjavik', seat_passenger: 'Ida', seat_number: '17A' }))).toEqual({ success: false, reason: 'no seat was changed' });
    expect(checkApp(st, spec('add_bag', { bag_to: 'Reykjavik', bag_passenger: 'Ida', bag_weight: '15 kg' }))).toEqual({ success: false, reason: 'no checked bag was bought' });
    expect(checkApp(st, spec('check_in', { checkin_to: 'Berlin', checkin_passenger: 'Mikkel' }))).toEqual({ success: false, reason: 'no one was checked in' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) {
        expect(t).toContain('Zephra');
        for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
      }
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['flights'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      for (const seed of [1, 7]) expect(checkApp(initialFlightsState(seed), q.checker).success).toBe(false);
    }
  });

  it('is on the home screen with every other icon, none needing a scroll, and opens from its icon', async () => {
    const s = await open(1);
    await step(s, { action: 'system_button', button: 'Home' });
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    const icons = s.page.locator('a.app');
    expect(await icons.count()).toBe(BUILT_IN_APPS.length + DECORATIVE_APPS.length);
    const height = (await s.page.evaluate('innerHeight')) as number;
    expect(await s.page.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(height);
    for (let i = 0; i < (await icons.count()); i++) {
      const box = await icons.nth(i).boundingBox();
      expect(box, `icon ${i}`).not.toBeNull();
      expect(box!.y, `icon ${i}`).toBeGreaterThanOrEqual(28);
      expect(box!.y + box!.height, `icon ${await icons.nth(i).getAttribute('aria-label')}`).toBeLessThanOrEqual(height);
    }
    await tap(s, s.page.locator('a.app[aria-label="Zephra"]'));
    expect(await visible(s, 'Check-in is open')).toBe(true);
    expect(await visible(s, 'Hi Freya')).toBe(true);
    await s.close();
  }, 60_000);

  it('books one one-way flight at a time on a fare, after the fare rules are accepted; another time, fare, a return trip or a second booking fails', async () => {
    const s = await open(1);
    await tap(s, s.page.locator('.bnav a[aria-label="Book"]'));
    // Return is the default; searching with no destination or return date shows errors.
    expect(await s.page.locator('#g-trip button[aria-checked="true"]').textContent()).toBe('Return');
    expect(await text(s, '#day-v')).toBe('Tue, Jun 3');
    await tap(s, s.page.locator('#search'));
    expect(await text(s, '#e-to')).toBe('Choose where you are flying to');
    expect(await text(s, '#e-ret')).toBe('Choose a return date');
    // London Gatwick first, then the one asked for; the date is Friday, June 13.
    await tap(s, s.page.locator('#to-btn'));
    await pick(s, '#to-list .ap[data-v="LGW"]');
    expect(await text(s, '#to-v')).toBe('London Gatwick');
    await tap(s, exact(s, '#g-trip button', 'One way'));
    expect(await s.page.locator('#f-ret').isVisible()).toBe(false);
    await tap(s, s.page.locator('#to-btn'));
    await pick(s, '#to-list .ap[data-v="LHR"]');
    await tap(s, s.page.locator('#day-btn'));
    await pick(s, '#depcal .cd[data-d="11"]');
    expect(await text(s, '#day-v')).toBe('Fri, Jun 13');
    await tap(s, s.page.locator('#search'));
    expect(await visible(s, 'Choose your outbound flight')).toBe(true);
    expect(await s.page.locator('.strip button.on').getAttribute('data-d')).toBe('Friday, June 13');
    expect(await s.page.locator('.res').count()).toBe(3);
    // The date strip moves the search to a nearby day and back.
    await tap(s, s.page.locator('.strip button[data-d="Saturday, June 14"]'));
    expect(await s.page.locator('.strip button.on').getAttribute('data-d')).toBe('Saturday, June 14');
    expect(await visible(s, 'Saturday, June 14')).toBe(true);
    await tap(s, s.page.locator('.strip button[data-d="Friday, June 13"]'));
    expect(await visible(s, 'Friday, June 13')).toBe(true);
    // The 7:05 PM flight (near the 7:05 AM one), Flex; leaving Review and pay unpaid books nothing.
    await tap(s, s.page.locator('.res[data-dep="7:05 PM"]'));
    expect(await s.page.locator('#fs-ZP805').isVisible()).toBe(true);
    expect(await s.page.locator('#fs-ZP801').isVisible()).toBe(false);
    await tap(s, s.page.locator('#sel-ZP805-Flex'));
    expect(await visible(s, 'Review and pay')).toBe(true);
    const sp = { book_to: 'London Heathrow', book_date: 'Friday, June 13', book_time: '7:05 PM', book_fare: 'Flex' };
    await tap(s, s.page.locator('#pay'));
    expect(await text(s, '#err')).toBe('Accept the fare rules to continue');
    expect(await reason(s, 'book_flight', sp)).toBe('no flight was booked');
    await tap(s, s.page.locator('#rules'));
    await tap(s, s.page.locator('#pay'));
    expect(await visible(s, 'Booking confirmed')).toBe(true);
    const ref = (await state(s)).trips.find((t) => !t.seeded)!.ref;
    expect(await reason(s, 'book_flight', sp)).toBe(`booked ZP 805 to London Heathrow on Friday, June 13 at 7:05 PM, one way, Flex fare (${ref})`);
    expect(await check(s, spec('book_flight', sp))).toBe(true);
    expect(await reason(s, 'book_flight', { ...sp, book_time: '7:05 AM' })).toBe('the 7:05 PM flight to London Heathrow was booked, expected the 7:05 AM one');
    expect(await reason(s, 'book_flight', { ...sp, book_fare: 'Classic' })).toBe('the flight was booked on the Flex fare, expected Classic');
    expect(await reason(s, 'book_flight', { ...sp, book_to: 'London Gatwick', book_time: '9:40 AM' })).toBe('the flight booked goes to London Heathrow, expected London Gatwick');
    expect(await reason(s, 'book_flight', { ...sp, book_date: 'Monday, June 16' })).toBe('the flight to London Heathrow was booked for Friday, June 13, expected Monday, June 16');
    // The new trip is under Trips; a second booking fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    expect(await s.page.locator(`a.tr[href$="/trip/${ref}"]`).count()).toBe(1);
    await search(s, 'NCE', 14);
    await tap(s, s.page.locator('#search'));
    await tap(s, s.page.locator('.res[data-dep="9:15 AM"]'));
    await tap(s, s.page.locator('#sel-ZP1611-Light'));
    await tap(s, s.page.locator('#rules'));
    await tap(s, s.page.locator('#pay'));
    expect(await visible(s, 'Booking confirmed')).toBe(true);
    expect(await reason(s, 'book_flight', sp)).toMatch(/^2 trips were booked \(\w+ to London Heathrow, \w+ to Nice\), expected one$/);
    await s.close();

    // Left on Return, the same flight books a return trip, which fails; two adults fail too.
    const t = await open(5);
    await search(t, 'ORY', 14, false);
    await tap(t, t.page.locator('#ret-btn'));
    await pick(t, '#retcal .cd[data-d="17"]');
    await tap(t, t.page.locator('#search'));
    await tap(t, t.page.locator('.res[data-dep="8:15 AM"]'));
    await tap(t, t.page.locator('#sel-ZP1121-Classic'));
    expect(await visible(t, 'Choose your return flight')).toBe(true);
    await tap(t, t.page.locator('.res[data-dep="9:20 PM"]'));
    await tap(t, t.page.locator('#sel-ZP1126-Classic'));
    await tap(t, t.page.locator('#rules'));
    await tap(t, t.page.locator('#pay'));
    expect(await visible(t, 'Booking confirmed')).toBe(true);
    expect(await reason(t, 'book_flight', { book_to: 'Paris Orly', book_date: 'Monday, June 16', book_time: '8:15 AM', book_fare: 'Classic' })).toBe(
      'a return trip was booked (back on Thursday, June 19 at 9:20 PM), expected one way',
    );
    await t.close();
    const u = await open(6);
    await search(u, 'OPO', 23);
    await tap(u, u.page.locator('#ad-plus'));
    await tap(u, u.page.locator('#search'));
    await tap(u, u.page.locator('.res[data-dep="11:50 AM"]'));
    await tap(u, u.page.locator('#sel-ZP1755-Light'));
    await tap(u, u.page.locator('#rules'));
    await tap(u, u.page.locator('#pay'));
    expect(await text(u, '#err')).toBe('Enter the full name of every passenger');
    await tap(u, u.page.locator('#n0'));
    await step(u, { action: 'type', text: 'Oskar Lund' });
    await tap(u, u.page.locator('#pay'));
    expect(await visible(u, 'Booking confirmed')).toBe(true);
    expect(await reason(u, 'book_flight', { book_to: 'Porto', book_date: 'Wednesday, June 25', book_time: '11:50 AM', book_fare: 'Light' })).toBe(
      'the flight was booked for 2 passengers (Freya, Oskar), expected Freya alone',
    );
    await u.close();
  }, 180_000);

  it("sets one passenger's seat on the outbound flight only on Confirm seat (a paid seat after the payment dialog); the return flight, another seat or passenger fails", async () => {
    const s = await open(2);
    await openTrip(s, 'Lisbon');
    // The return flight first (a near-duplicate of the outbound one).
    await tap(s, s.page.locator('#seats-h3rt9v-back'));
    expect(await visible(s, 'Confirm seat')).toBe(true);
    expect(await s.page.locator('#paxbar button.on').getAttribute('data-pax')).toBe('Freya');
    await tap(s, s.page.locator('#paxbar button[data-pax="Oskar"]'));
    expect(await s.page.locator('#paxbar button.on').getAttribute('data-pax')).toBe('Oskar');
    await tap(s, s.page.locator('.st[data-seat="14C"]'));
    expect(await text(s, '#sel-v')).toBe('New seat 14C · Standard · Free');
    await tap(s, s.page.locator('#confirm'));
    expect(await visible(s, 'Seat confirmed')).toBe(true);
    const sp = { seat_to: 'Lisbon', seat_passenger: 'Oskar', seat_number: '14C' };
    expect(await reason(s, 'choose_seat', sp)).toBe("Oskar's seat on the flight to Lisbon is still 22B (changed Oskar's seat on ZP 1736 Lisbon → Copenhagen on Saturday, June 28 (now 14C) instead)");
    await s.close();

    const t = await open(2);
    await openTrip(t, 'Lisbon');
    await tap(t, t.page.locator('#seats-h3rt9v-out'));
    await tap(t, t.page.locator('#paxbar button[data-pax="Oskar"]'));
    // A taken seat and Freya's seat cannot be picked; 14D is picked, then left unconfirmed.
    const st0 = await state(t);
    const taken = st0.trips.find((x) => x.ref === 'H3RT9V')!.legs[0]!.taken[0]!;
    await tap(t, t.page.locator(`.st[data-seat="${taken}"]`));
    expect(await text(t, '#snack')).toBe(`Seat ${taken} is taken`);
    await tap(t, t.page.locator('.st[data-seat="22A"]'));
    expect(await text(t, '#snack')).toBe('Freya is in seat 22A');
    await tap(t, t.page.locator('.st[data-seat="14D"]'));
    expect(await t.page.locator('.st.me').getAttribute('data-seat')).toBe('14D');
    await tap(t, t.page.locator('header button[aria-label="Back"]'));
    expect(await reason(t, 'choose_seat', sp)).toBe('no seat was changed');
    await tap(t, t.page.locator('#seats-h3rt9v-out'));
    await tap(t, t.page.locator('#paxbar button[data-pax="Oskar"]'));
    await tap(t, t.page.locator('.st[data-seat="14D"]'));
    await tap(t, t.page.locator('.st[data-seat="14C"]'));
    await tap(t, t.page.locator('#confirm'));
    expect(await visible(t, 'Seat confirmed')).toBe(true);
    expect(await t.page.locator('.px[data-pax="Oskar"] .s').first().textContent()).toBe('Adult · Out 14C · Back —');
    expect(await reason(t, 'choose_seat', sp)).toBe("Oskar has seat 14C on ZP 1731 Copenhagen → Lisbon on Friday, June 20 (was 22B)");
    expect(await check(t, spec('choose_seat', sp))).toBe(true);
    expect(await reason(t, 'choose_seat', { ...sp, seat_number: '14D' })).toBe("Oskar's seat on the flight to Lisbon is 14C, expected 14D");
    expect(await reason(t, 'choose_seat', { ...sp, seat_passenger: 'Freya' })).toBe(
      "Freya's seat on the flight to Lisbon is still 22A (changed Oskar's seat on ZP 1731 Copenhagen → Lisbon on Friday, June 20 (now 14C) instead)",
    );
    // An extra-legroom seat for Freya asks to pay; Cancel keeps it unchanged, Pay saves it and fails Oskar's task.
    await tap(t, t.page.locator('#seats-h3rt9v-out'));
    await tap(t, t.page.locator('.st[data-seat="12F"]'));
    await tap(t, t.page.locator('#confirm'));
    expect(await visible(t, 'Confirm seat payment')).toBe(true);
    expect(await text(t, '#pay-ok')).toBe('Pay €24');
    await tap(t, exact(t, '#paydlg .acts button', 'Cancel'));
    expect(await check(t, spec('choose_seat', sp))).toBe(true);
    await tap(t, t.page.locator('#confirm'));
    await tap(t, t.page.locator('#pay-ok'));
    expect(await visible(t, 'Seat confirmed')).toBe(true);
    expect(await reason(t, 'choose_seat', { seat_to: 'Lisbon', seat_passenger: 'Freya', seat_number: '12F' })).toBe(
      "Freya has seat 12F on the flight to Lisbon but Oskar's seat on ZP 1731 Copenhagen → Lisbon on Friday, June 20 (now 14C) was changed too",
    );
    expect(await reason(t, 'choose_seat', sp)).toBe(
      "Oskar has seat 14C on the flight to Lisbon but Freya's seat on ZP 1731 Copenhagen → Lisbon on Friday, June 20 (now 12F) was changed too",
    );
    await t.close();
  }, 150_000);

  it('buys one checked bag of a weight for one passenger only once paid; the basket alone, another weight, or a second bag fails', async () => {
    const s = await open(3);
    await openTrip(s, 'Reykjavik');
    await tap(s, s.page.locator('#bags-row'));
    expect(await visible(s, 'Checked bags')).toBe(true);
    await tap(s, s.page.locator('#add-oskar'));
    expect(await s.page.locator('#bs-oskar .bopt[aria-checked="true"]').getAttribute('data-w')).toBe(BAG_DEFAULT);
    await tap(s, s.page.locator('#bs-oskar .bopt[data-w="23 kg"]'));
    await tap(s, s.page.locator('#bs-oskar-ok'));
    expect(await s.page.locator('.bk[data-pax="Oskar"]').getAttribute('data-w')).toBe('23 kg');
    const sp = { bag_to: 'Reykjavik', bag_passenger: 'Oskar', bag_weight: '23 kg' };
    expect(await reason(s, 'add_bag', sp)).toBe('a 23 kg bag for Oskar on the trip to Reykjavik is in the basket but was not paid for');
    // Ida's bag is added and removed again; the payment dialog's Cancel pays nothing.
    await tap(s, s.page.locator('#add-ida'));
    await tap(s, s.page.locator('#bs-ida-ok'));
    expect(await text(s, '#pay')).toBe('Pay €65');
    const idaBag = (await state(s)).trips.find((t) => t.ref === 'QN5B2C')!.bags.find((b) => b.pax === 'ida')!;
    await tap(s, s.page.locator(`#rm-${idaBag.id}`));
    expect(await s.page.locator('.bk').count()).toBe(1);
    await tap(s, s.page.locator('#pay'));
    expect(await visible(s, 'Confirm payment')).toBe(true);
    await tap(s, exact(s, '#paydlg .acts button', 'Cancel'));
    expect(await reason(s, 'add_bag', sp)).toBe('a 23 kg bag for Oskar on the trip to Reykjavik is in the basket but was not paid for');
    await tap(s, s.page.locator('#pay'));
    await tap(s, s.page.locator('#pay-ok'));
    expect(await visible(s, 'Bags added')).toBe(true);
    expect(await s.page.locator('.px[data-pax="Oskar"] .s').nth(1).textContent()).toBe('1 checked bag (23 kg)');
    expect(await reason(s, 'add_bag', sp)).toBe('bought a 23 kg checked bag for Oskar on the trip to Reykjavik (€35)');
    expect(await check(s, spec('add_bag', sp))).toBe(true);
    expect(await reason(s, 'add_bag', { ...sp, bag_weight: '32 kg' })).toBe("Oskar's bag on the trip to Reykjavik is 23 kg, expected 32 kg");
    expect(await reason(s, 'add_bag', { ...sp, bag_passenger: 'Ida' })).toBe('no bag was bought for Ida on the trip to Reykjavik (bought a 23 kg bag for Oskar on the trip to Reykjavik instead)');
    // A second bag, for Ida, fails the task.
    await tap(s, s.page.locator('#bags-row'));
    await tap(s, s.page.locator('#add-ida'));
    await tap(s, s.page.locator('#bs-ida .bopt[data-w="15 kg"]'));
    await tap(s, s.page.locator('#bs-ida-ok'));
    await tap(s, s.page.locator('#pay'));
    await tap(s, s.page.locator('#pay-ok'));
    expect(await visible(s, 'Bags added')).toBe(true);
    expect(await reason(s, 'add_bag', sp)).toBe('2 bags were bought (a 23 kg bag for Oskar on the trip to Reykjavik, a 15 kg bag for Ida on the trip to Reykjavik), expected one');
    await s.close();
  }, 120_000);

  it('checks in only the passengers left ticked, after the dangerous goods box; a child alone, another passenger or everyone fails', async () => {
    const s = await open(4);
    expect(await visible(s, 'Check-in is open')).toBe(true);
    await tap(s, s.page.locator('.ci[data-to="Barcelona"] a.btn'));
    expect(await visible(s, "Who's checking in?")).toBe(true);
    expect(await s.page.locator('.tick[data-id][aria-checked="true"]').count()).toBe(3);
    expect(await text(s, '#submit')).toBe('Check in 3 passengers');
    await tap(s, s.page.locator('#ck-freya'));
    await tap(s, s.page.locator('#ck-oskar'));
    expect(await text(s, '#submit')).toBe('Check in 1 passenger');
    await tap(s, s.page.locator('#submit'));
    expect(await text(s, '#e-pax')).toBe('Ida can only be checked in with an adult on this booking');
    expect(await text(s, '#e-dg')).toBe('Confirm the dangerous goods rules to continue');
    const sp = { checkin_to: 'Barcelona', checkin_passenger: 'Oskar' };
    expect(await reason(s, 'check_in', sp)).toBe('no one was checked in');
    await tap(s, s.page.locator('#ck-ida'));
    await tap(s, s.page.locator('#ck-oskar'));
    await tap(s, s.page.locator('#dg'));
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, "You're checked in")).toBe(true);
    expect(await s.page.locator('.pass').count()).toBe(1);
    expect(await s.page.locator('.pass').getAttribute('data-pax')).toBe('Oskar');
    expect(await reason(s, 'check_in', sp)).toBe('Oskar alone is checked in on ZP 1451 Copenhagen → Barcelona on Tuesday, June 3, seat 16B');
    expect(await check(s, spec('check_in', sp))).toBe(true);
    expect(await reason(s, 'check_in', { ...sp, checkin_passenger: 'Freya' })).toBe('Freya is not checked in for the flight to Barcelona (checked in Oskar on ZP 1451 to Barcelona instead)');
    // Ida can now be checked in (an adult is); doing so fails Oskar's task.
    await tap(s, s.page.locator('#more-checkin'));
    expect(await s.page.locator('#ck-oskar').getAttribute('aria-disabled')).toBe('true');
    await tap(s, s.page.locator('#ck-freya'));
    await tap(s, s.page.locator('#dg'));
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('.pass').count()).toBe(2);
    expect(await reason(s, 'check_in', sp)).toBe('Oskar is checked in for the flight to Barcelona but so is Ida on ZP 1451 to Barcelona');
    await s.close();

    // Berlin from Quick actions: Mikkel, who had no seat, gets one; checking in both fails.
    const t = await open(7);
    await tap(t, t.page.locator('#qa-checkin'));
    expect(await visible(t, 'Open for check-in')).toBe(true);
    await tap(t, t.page.locator('#checkin-mw82ld-out'));
    await tap(t, t.page.locator('#dg'));
    await tap(t, t.page.locator('#submit'));
    expect(await t.page.locator('.pass').count()).toBe(2);
    const mikkel = paxLeg((await state(t)).trips.find((x) => x.ref === 'MW82LD')!.legs[0]!, 'mikkel')!;
    expect(mikkel.seat).not.toBe('');
    expect(await reason(t, 'check_in', { checkin_to: 'Berlin', checkin_passenger: 'Mikkel' })).toBe('Mikkel is checked in for the flight to Berlin but so is Freya on ZP 212 to Berlin');
    await t.close();
  }, 120_000);
});
