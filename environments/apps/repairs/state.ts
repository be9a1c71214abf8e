import { dayCalendar, rng, shuffle } from '../shared.js';

/** One thing a pro does, with the price range and time it usually takes. */
export interface Service {
  name: string;
  price: string;
  takes: string;
}

/** A review shown on a pro's page. */
export interface ProReview {
  author: string;
  stars: number;
  when: string;
  text: string;
}

/** A home-repair pro (a small business or a one-person outfit). */
export interface Pro {
  id: number;
  name: string;
  owner: string;
  trade: string;
  rating: number;
  /** Number of ratings (moves between seeds). */
  ratings: number;
  years: number;
  /** What a visit costs before any work ("$79 service call"). */
  fee: string;
  /** Weekdays it works, 0 = Monday … 6 = Sunday. */
  weekdays: readonly number[];
  serves: string;
  about: string;
  services: readonly Service[];
  reviews: readonly ProReview[];
  /** False for a pro whose calendar is closed to new bookings. */
  accepting: boolean;
  phone: string;
}

/** A saved payment card. */
export interface Card {
  id: number;
  brand: string;
  last4: string;
  exp: string;
  expired: boolean;
}

/** What the customer paid for a finished visit. */
export interface Payment {
  cardId: number;
  /** "No tip", "10%", "15%", "20%" or "Custom". */
  tip: string;
  tipCents: number;
  totalCents: number;
  seq: number;
}

export type VisitStatus = 'scheduled' | 'completed' | 'canceled';

/** A visit by a pro, upcoming or past. */
export interface Visit {
  id: number;
  proId: number;
  service: string;
  /** Day offset from today (negative: in the past). */
  day: number;
  window: string;
  addressId: number;
  notes: string;
  status: VisitStatus;
  cancelReason: string;
  /** Invoice lines of a completed visit, in cents. */
  invoice: readonly (readonly [string, number])[];
  payment: Payment | null;
  /** The time it had before it was moved in this session. */
  movedFrom: { day: number; window: string; seq: number } | null;
  seeded: boolean;
  /** Order it was booked, moved or canceled in this session (0 for an untouched seeded one). */
  seq: number;
}

export type RequestStatus = 'open' | 'hired' | 'closed';

/** A request for quotes on a bigger project. */
export interface QuoteRequest {
  id: number;
  project: string;
  size: string;
  budget: string;
  timing: string;
  addressId: number;
  details: string;
  status: RequestStatus;
  /** Quotes received so far: pro name and price text. */
  quotes: readonly (readonly [string, string])[];
  hired: string;
  created: number;
  seeded: boolean;
  seq: number;
}

export interface Address {
  id: number;
  label: string;
  line: string;
}

/** A booking between its three steps (server-side, like a real app's cart). */
export interface BookingDraft {
  proId: number;
  service: string;
  day: number;
  window: string;
  addressId: number;
  notes: string;
}

/** A quote request between its two steps. */
export interface QuoteDraft {
  project: string;
  size: string;
  budget: string;
  timing: string;
  addressId: number;
  details: string;
}

/** Mendwick's per-session state. Read by checkers in-process; the page never sees this object. */
export interface RepairsState {
  seed: number;
  pros: Pro[];
  /** "Recommended" order of pros, different for every seed. */
  order: number[];
  visits: Visit[];
  requests: QuoteRequest[];
  cards: Card[];
  defaultCardId: number;
  addresses: Address[];
  booking: BookingDraft;
  quote: QuoteDraft;
  prefs: { reminders: boolean; messages: boolean; deals: boolean };
  seq: number;
}

export const USER = 'Nadia Brooks';
export const USER_EMAIL = 'nadia.brooks@example.com';
export const USER_PHONE = '(614) 555-0182';
export const NOTES_MAX = 300;
export const DETAILS_MAX = 600;

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
export const NOW_HOURS = 9 + 41 / 60;
/** Days a visit can be booked or moved to: tomorrow to two weeks out (Sunday, June 15). */
export const BOOKABLE_DAYS: readonly number[] = Array.from({ length: 13 }, (_, i) => i + 1);

export const TRADES: readonly (readonly [string, string])[] = [
  ['Plumbing', '&#128703;'],
  ['Electrical', '&#9889;'],
  ['Appliances', '&#10052;'],
  ['Handyman', '&#128296;'],
  ['Heating & cooling', '&#127777;'],
  ['Locksmith', '&#128273;'],
];
export const TRADE_NAMES: readonly string[] = TRADES.map(([t]) => t);

/** Arrival windows, with the hour each starts. */
export const WINDOWS: readonly (readonly [string, number])[] = [
  ['8–10 AM', 8],
  ['10 AM–12 PM', 10],
  ['12–2 PM', 12],
  ['2–4 PM', 14],
  ['4–6 PM', 16],
];
export const WINDOW_NAMES: readonly string[] = WINDOWS.map(([w]) => w);

export const CANCEL_REASONS: readonly string[] = ['My plans changed', 'I fixed it myself', 'I found someone else', 'The price is too high', 'Other'];
export const TIP_OPTIONS: readonly string[] = ['No tip', '10%', '15%', '20%', 'Custom'];
export const PROJECT_TYPES: readonly string[] = [
  'Bathroom remodel',
  'Kitchen backsplash',
  'Deck repair',
  'Fence repair',
  'Interior painting',
  'Exterior painting',
  'Drywall repair',
  'Gutter cleaning',
  'Window replacement',
  'Roof inspection',
];
export const SIZES: readonly (readonly [string, string])[] = [
  ['Small', 'A few hours'],
  ['Medium', 'One or two days'],
  ['Large', 'Three days or more'],
];
export const BUDGETS: readonly string[] = ['Under $500', '$500–$2,000', '$2,000–$10,000', 'Over $10,000', 'Not sure yet'];
export const TIMINGS: readonly string[] = ['As soon as possible', 'Within 2 weeks', 'Within a month', 'Just planning'];

const S = (name: string, price: string, takes: string): Service => ({ name, price, takes });
const R = (author: string, stars: number, when: string, text: string): ProReview => ({ author, stars, when, text });

type ProRow = readonly [
  name: string,
  owner: string,
  trade: string,
  rating: number,
  ratings: number,
  years: number,
  fee: string,
  weekdays: readonly number[],
  serves: string,
  about: string,
  services: readonly Service[],
  reviews: readonly ProReview[],
  accepting: boolean,
  phone: string,
];

const WEEKDAYS = [0, 1, 2, 3, 4];
const PROS: readonly ProRow[] = [
  [
    'Rivera Plumbing & Drain',
    'Luis Rivera',
    'Plumbing',
    4.9,
    212,
    14,
    '$79 service call',
    WEEKDAYS,
    'Clintonville, Worthington, Short North and 9 more',
    'Family-run plumbing shop. Upfront prices before we start, and we clean up after ourselves.',
    [S('Leaky faucet repair', '$120–$180', '1–2 hrs'), S('Clogged drain', '$95–$160', 'About 1 hr'), S('Toilet repair', '$110–$210', '1–2 hrs'), S('Water heater flush', '$140', 'About 1 hr')],
    [R('Megan T.', 5, '2 weeks ago', 'Luis found the leak behind the vanity in ten minutes. Fair price.'), R('Chris A.', 5, 'Last month', 'On time, explained everything, no upselling.')],
    true,
    '(614) 555-0131',
  ],
  [
    'Rivera Bros. Plumbing',
    'Tomás Rivera',
    'Plumbing',
    4.6,
    88,
    6,
    '$65 service call',
    [1, 2, 3, 4, 5],
    'Columbus north side and Westerville',
    'Two brothers, one van. Saturday appointments available.',
    [S('Clogged drain', '$85–$140', 'About 1 hr'), S('Garbage disposal replacement', '$220–$320', '2 hrs'), S('Leaky faucet repair', '$100–$160', '1–2 hrs'), S('Sump pump check', '$120', 'About 1 hr')],
    [R('Dana P.', 4, '3 weeks ago', 'Good work on our disposal, showed up at the end of the window.'), R('Sofia L.', 5, '2 months ago', 'Came on a Saturday, lifesaver.')],
    true,
    '(614) 555-0176',
  ],
  [
    'ClearFlow Plumbing',
    'Hannah Cho',
    'Plumbing',
    4.8,
    140,
    9,
    '$75 service call',
    [0, 2, 4, 5],
    'Clintonville, Beechwold and Linden',
    'Drain specialists with camera inspection on every clog call.',
    [S('Clogged drain', '$90–$150', 'About 1 hr'), S('Toilet repair', '$110–$190', '1–2 hrs'), S('Shower valve repair', '$180–$300', '2–3 hrs')],
    [R('Owen R.', 5, 'Last week', 'Showed me the camera footage of the root in the line. Very professional.')],
    true,
    '(614) 555-0119',
  ],
  [
    'Copperline Plumbing',
    'Walt Becker',
    'Plumbing',
    4.2,
    23,
    31,
    '$95 service call',
    WEEKDAYS,
    'Central Columbus',
    'Repiping and older homes. Booked up through June; new customers can join the waitlist by phone.',
    [S('Repiping estimate', 'Free', 'About 1 hr'), S('Clogged drain', '$110–$180', 'About 1 hr')],
    [R('Gail M.', 4, '4 months ago', 'Knows old houses.')],
    false,
    '(614) 555-0102',
  ],
  [
    'Brightwire Electric',
    'Sam Okafor',
    'Electrical',
    4.9,
    301,
    11,
    '$89 service call',
    WEEKDAYS,
    'All of Franklin County',
    'Licensed master electrician and a crew of three. Permits pulled when needed.',
    [
      S('Outlet or switch repair', '$95–$160', 'About 1 hr'),
      S('Ceiling fan installation', '$150–$260', '2–3 hrs'),
      S('Light fixture installation', '$120–$200', '1–2 hrs'),
      S('Breaker troubleshooting', '$130–$240', '1–2 hrs'),
    ],
    [R('Priya N.', 5, '5 days ago', 'Replaced two dead outlets and labeled the panel for free.'), R('Mark D.', 5, 'Last month', 'Clean, quick, polite.')],
    true,
    '(614) 555-0148',
  ],
  [
    'Brightway Electrical',
    'Dev Patel',
    'Electrical',
    4.5,
    57,
    4,
    '$70 service call',
    [0, 1, 2, 3, 4, 5],
    'Columbus, Bexley and Whitehall',
    'Small jobs welcome: fans, fixtures, detectors and outlets.',
    [S('Ceiling fan installation', '$140–$230', '2–3 hrs'), S('Outlet or switch repair', '$90–$150', 'About 1 hr'), S('Smoke detector installation', '$80–$140', 'About 1 hr')],
    [R('Lena K.', 4, '2 weeks ago', 'Fan works great, took a little longer than quoted.')],
    true,
    '(614) 555-0157',
  ],
  [
    'Cold Spot Appliance Repair',
    'Irene Walsh',
    'Appliances',
    4.7,
    163,
    12,
    '$85 diagnostic fee',
    WEEKDAYS,
    'Columbus and the northern suburbs',
    'Factory-trained on most major brands. The diagnostic fee comes off the repair if you go ahead.',
    [S('Refrigerator repair', '$150–$400', '1–2 hrs'), S('Dishwasher repair', '$130–$300', '1–2 hrs'), S('Washer repair', '$140–$320', '1–2 hrs'), S('Dryer repair', '$120–$280', '1–2 hrs')],
    [R('Tom B.', 5, '3 weeks ago', 'Fridge was cold again the same afternoon.')],
    true,
    '(614) 555-0163',
  ],
  [
    'Apex Appliance Service',
    'Marco DeLuca',
    'Appliances',
    4.4,
    49,
    5,
    '$69 diagnostic fee',
    [1, 2, 3, 4, 5],
    'Columbus and Grandview',
    'Washers, dishwashers and ovens. Parts usually on the truck.',
    [S('Dishwasher repair', '$120–$280', '1–2 hrs'), S('Washer repair', '$130–$300', '1–2 hrs'), S('Oven & range repair', '$140–$350', '1–2 hrs')],
    [R('Ruth S.', 4, 'Last month', 'Fixed the dishwasher, had to come back once for a part.')],
    true,
    '(614) 555-0190',
  ],
  [
    "Handy Hank's Home Repair",
    'Hank Sorensen',
    'Handyman',
    4.8,
    390,
    17,
    '$60 an hour, 2-hour minimum',
    [0, 1, 2, 3, 4, 5],
    'Anywhere inside I-270',
    'No job too small. Bring your honey-do list.',
    [S('TV wall mounting', '$120–$180', '1–2 hrs'), S('Furniture assembly', '$60 an hour', '2+ hrs'), S('Drywall patch', '$120–$220', '2 hrs'), S('Door adjustment', '$90–$150', 'About 1 hr')],
    [R('Ana G.', 5, 'Last week', 'Mounted two TVs and hid the cables. Tidy work.'), R('Joe F.', 5, '2 months ago', 'Hank fixed three sticking doors in an hour.')],
    true,
    '(614) 555-0124',
  ],
  [
    'Two Hands Handyman',
    'Priscilla Moyo',
    'Handyman',
    4.9,
    75,
    3,
    '$55 an hour, 2-hour minimum',
    [2, 3, 4, 5, 6],
    'Clintonville, Old North and German Village',
    'Careful, detail-minded handywork, including weekends.',
    [S('Furniture assembly', '$55 an hour', '2+ hrs'), S('Shelf & curtain rod installation', '$90–$160', '1–2 hrs'), S('Drywall patch', '$110–$200', '2 hrs'), S('Caulking & grout', '$100–$180', '2 hrs')],
    [R('Beth W.', 5, '4 days ago', 'Assembled a whole bedroom set and took the boxes away.')],
    true,
    '(614) 555-0185',
  ],
  [
    'Northwind Heating & Air',
    'Gabe Lindgren',
    'Heating & cooling',
    4.7,
    228,
    20,
    '$89 service call',
    WEEKDAYS,
    'Central Ohio',
    'Furnaces, air conditioners and heat pumps. Maintenance plans available.',
    [S('AC tune-up', '$129', 'About 1 hr'), S('Furnace tune-up', '$119', 'About 1 hr'), S('AC not cooling', '$150–$450', '1–3 hrs'), S('Thermostat installation', '$140–$260', '1–2 hrs')],
    [R('Kim H.', 5, '2 weeks ago', 'Tune-up done before the heat wave. Thorough checklist.')],
    true,
    '(614) 555-0111',
  ],
  [
    'Northgate Heating & Cooling',
    'Ravi Shah',
    'Heating & cooling',
    4.3,
    31,
    2,
    '$59 service call',
    [0, 1, 2, 3, 4, 5],
    'Columbus and Hilliard',
    'New company, same-week appointments for AC and ducts.',
    [S('AC tune-up', '$99', 'About 1 hr'), S('AC not cooling', '$140–$420', '1–3 hrs'), S('Duct cleaning estimate', 'Free', 'About 45 min')],
    [R('Jon E.', 4, 'Last month', 'Good price on the tune-up.')],
    true,
    '(614) 555-0139',
  ],
  [
    'Keystone Lock & Key',
    'Al Brennan',
    'Locksmith',
    4.8,
    119,
    22,
    '$49 trip fee',
    [0, 1, 2, 3, 4, 5, 6],
    'Columbus metro',
    'Rekeys, new deadbolts and mailbox locks, seven days a week.',
    [S('Lock rekey', '$25 a lock', 'About 1 hr'), S('Deadbolt installation', '$95–$180', '1–2 hrs'), S('Mailbox lock replacement', '$65', '30 min')],
    [R('Nora V.', 5, '3 weeks ago', 'Rekeyed the whole house after we moved in.')],
    true,
    '(614) 555-0107',
  ],
];
export const PRO_NAMES: readonly string[] = PROS.map(([n]) => n);

const ADDRESSES: readonly (readonly [string, string])[] = [
  ['Home', '418 Oakridge Ave, Columbus, OH 43214'],
  ["Mom's place", '2207 Sunbury Rd, Columbus, OH 43219'],
];

/** Brand, last four, expiry, expired. The first one is the default. */
const CARDS: readonly (readonly [string, string, string, boolean])[] = [
  ['Visa', '4821', '08/27', false],
  ['Visa', '4812', '03/25', true],
  ['Mastercard', '0937', '11/28', false],
  ['American Express', '1006', '05/27', false],
];
export const CARD_ENDINGS: readonly string[] = CARDS.map(([, l]) => l);

type VisitRow = readonly [
  pro: string,
  service: string,
  day: number,
  window: string,
  status: VisitStatus,
  address: string,
  invoice: readonly (readonly [string, number])[],
  paid: readonly [string, string, number] | null,
  cancelReason: string,
];
/** Pro, service, day, window, status, address label, invoice lines, paid [card, tip, tip cents], cancel reason. */
const VISITS: readonly VisitRow[] = [
  ['Cold Spot Appliance Repair', 'Refrigerator repair', 0, '2–4 PM', 'scheduled', 'Home', [], null, ''],
  ['Brightwire Electric', 'Outlet or switch repair', 1, '8–10 AM', 'scheduled', 'Home', [], null, ''],
  ['Rivera Plumbing & Drain', 'Water heater flush', 3, '10 AM–12 PM', 'scheduled', 'Home', [], null, ''],
  ['Rivera Bros. Plumbing', 'Garbage disposal replacement', 4, '2–4 PM', 'scheduled', 'Home', [], null, ''],
  ["Handy Hank's Home Repair", 'TV wall mounting', 7, '2–4 PM', 'scheduled', "Mom's place", [], null, ''],
  ['Northwind Heating & Air', 'AC tune-up', 9, '8–10 AM', 'scheduled', 'Home', [], null, ''],
  [
    'Two Hands Handyman',
    'Furniture assembly',
    -3,
    '10 AM–12 PM',
    'completed',
    'Home',
    [
      ['Labor, 2.5 hours at $55', 13750],
      ['Wall anchors and hardware', 1240],
    ],
    null,
    '',
  ],
  [
    'Brightway Electrical',
    'Ceiling fan installation',
    -5,
    '12–2 PM',
    'completed',
    'Home',
    [
      ['Service call', 7000],
      ['Ceiling fan installation', 14500],
      ['Fan mounting bracket', 2899],
    ],
    null,
    '',
  ],
  [
    'Apex Appliance Service',
    'Dishwasher repair',
    -9,
    '8–10 AM',
    'completed',
    'Home',
    [
      ['Diagnostic fee', 6900],
      ['Drain pump replacement, labor', 11800],
      ['Drain pump (part)', 6450],
    ],
    null,
    '',
  ],
  [
    'Keystone Lock & Key',
    'Lock rekey',
    -12,
    '2–4 PM',
    'completed',
    'Home',
    [
      ['Trip fee', 4900],
      ['Rekey, 3 locks at $25', 7500],
    ],
    ['4821', '15%', 1860],
    '',
  ],
  ['Rivera Bros. Plumbing', 'Clogged drain', -16, '10 AM–12 PM', 'canceled', 'Home', [], null, 'I fixed it myself'],
  [
    'ClearFlow Plumbing',
    'Clogged drain',
    -19,
    '8–10 AM',
    'completed',
    'Home',
    [
      ['Service call', 7500],
      ['Drain clearing, kitchen sink', 9500],
    ],
    ['4821', 'No tip', 0],
    '',
  ],
  [
    'Brightwire Electric',
    'Light fixture installation',
    -26,
    '12–2 PM',
    'completed',
    "Mom's place",
    [
      ['Service call', 8900],
      ['Light fixture installation, 2 fixtures', 18000],
    ],
    ['0937', '20%', 5340],
    '',
  ],
];
export const SEEDED_VISITS = VISITS;

/** Project, size, budget, timing, status, quotes, hired, created. */
const REQUESTS: readonly (readonly [string, string, string, string, RequestStatus, readonly (readonly [string, string])[], string, number])[] = [
  [
    'Gutter cleaning',
    'Small',
    'Under $500',
    'Within 2 weeks',
    'open',
    [
      ['Clearview Gutters', '$165'],
      ["Handy Hank's Home Repair", '$210'],
      ['High & Dry Exteriors', '$189'],
    ],
    '',
    -4,
  ],
  ['Interior painting', 'Medium', '$2,000–$10,000', 'Within a month', 'hired', [['Fresh Coat Painters', '$2,850'], ['Brushline Co.', '$3,400']], 'Fresh Coat Painters', -41],
  ['Fence repair', 'Small', 'Not sure yet', 'Just planning', 'closed', [['Oak & Iron Fencing', '$640']], '', -63],
];

export function initialRepairsState(seed: number): RepairsState {
  const rand = rng(seed ^ 0x4e9d21);
  const pros: Pro[] = PROS.map(([name, owner, trade, rating, ratings, years, fee, weekdays, serves, about, services, reviews, accepting, phone], i) => ({
    id: 11 + i,
    name,
    owner,
    trade,
    rating,
    ratings: ratings + Math.floor(rand() * 12),
    years,
    fee,
    weekdays,
    serves,
    about,
    services,
    reviews,
    accepting,
    phone,
  }));
  const addresses: Address[] = ADDRESSES.map(([label, line], i) => ({ id: 1 + i, label, line }));
  const cards: Card[] = CARDS.map(([brand, last4, exp, expired], i) => ({ id: 81 + i, brand, last4, exp, expired }));
  const proOf = (name: string): Pro => pros.find((p) => p.name === name) as Pro;
  const visits: Visit[] = VISITS.map(([pro, service, day, window, status, address, invoice, paid, cancelReason], i) => {
    const due = invoice.reduce((s, [, c]) => s + c, 0);
    return {
      id: 501 + i,
      proId: proOf(pro).id,
      service,
      day,
      window,
      addressId: addresses.find((a) => a.label === address)!.id,
      notes: '',
      status,
      cancelReason,
      invoice,
      payment: paid ? { cardId: cards.find((c) => c.last4 === paid[0])!.id, tip: paid[1], tipCents: paid[2], totalCents: due + paid[2], seq: 0 } : null,
      movedFrom: null,
      seeded: true,
      seq: 0,
    };
  });
  const requests: QuoteRequest[] = REQUESTS.map(([project, size, budget, timing, status, quotes, hired, created], i) => ({
    id: 901 + i,
    project,
    size,
    budget,
    timing,
    addressId: 1,
    details: '',
    status,
    quotes,
    hired,
    created,
    seeded: true,
    seq: 0,
  }));
  return {
    seed,
    pros,
    order: shuffle(
      pros.map((p) => p.id),
      rand,
    ),
    visits,
    requests,
    cards,
    defaultCardId: cards[0]!.id,
    addresses,
    booking: emptyBooking(),
    quote: emptyQuote(),
    prefs: { reminders: true, messages: true, deals: false },
    seq: 0,
  };
}

export const emptyBooking = (): BookingDraft => ({ proId: 0, service: '', day: -1, window: '', addressId: 1, notes: '' });
export const emptyQuote = (): QuoteDraft => ({ project: '', size: '', budget: '', timing: '', addressId: 1, details: '' });

export const proOf = (st: RepairsState, id: number): Pro | undefined => st.pros.find((p) => p.id === id);
export const proIndex = (name: string): number => PRO_NAMES.indexOf(name);
export const cardOf = (st: RepairsState, id: number): Card | undefined => st.cards.find((c) => c.id === id);
export const cardName = (c: Card): string => `${c.brand} •••• ${c.last4}`;
export const addressOf = (st: RepairsState, id: number): Address | undefined => st.addresses.find((a) => a.id === id);
export const windowStart = (w: string): number => WINDOWS.find(([x]) => x === w)?.[1] ?? 0;

/** Whether the pro works that day (offset from today). */
export const works = (p: Pro, day: number): boolean => p.weekdays.includes(((day % 7) + 7) % 7);
/** Days the pro can be booked for, tomorrow to two weeks out. */
export const openDays = (p: Pro): number[] => BOOKABLE_DAYS.filter((d) => works(p, d));

/**
 * Arrival windows already taken in a pro's calendar on a day (other customers). Only the midday and late windows ever
 * fill up, on a pattern fixed per pro.
 */
export function takenWindows(p: Pro, day: number): string[] {
  const i = proIndex(p.name);
  const out: string[] = [];
  if ((i + day) % 3 === 0) out.push('12–2 PM');
  if ((i * 2 + day) % 4 === 1) out.push('4–6 PM');
  return out;
}
export const freeWindows = (p: Pro, day: number): string[] => (works(p, day) ? WINDOW_NAMES.filter((w) => !takenWindows(p, day).includes(w)) : []);

/** Hours from now until the visit's window starts. */
export const hoursUntil = (v: { day: number; window: string }): number => v.day * 24 + windowStart(v.window) - NOW_HOURS;
export const isUpcoming = (v: Visit): boolean => v.status === 'scheduled';
/** Visits can be moved or canceled in the app until 24 hours before the arrival window starts. */
export const canChange = (v: Visit): boolean => isUpcoming(v) && hoursUntil(v) >= 24;
export const dueCents = (v: Visit): number => v.invoice.reduce((s, [, c]) => s + c, 0);
export const paymentDue = (v: Visit): boolean => v.status === 'completed' && v.invoice.length > 0 && !v.payment;

export const money = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** Tip for a percentage option ("15%") on an amount, rounded to the cent. */
export const tipFor = (tip: string, cents: number): number => {
  const m = /^(\d+)%$/.exec(tip);
  return m ? Math.round((cents * Number(m[1])) / 100) : 0;
};

/** Why a booking step cannot go on, by field (empty when it can). */
export function bookingErrors(st: RepairsState, d: BookingDraft, stage: 'service' | 'time' | 'all'): Record<string, string> {
  const errors: Record<string, string> = {};
  const p = proOf(st, d.proId);
  if (!p || !p.accepting) return { service: 'This pro is not taking bookings' };
  if (!p.services.some((s) => s.name === d.service)) errors.service = 'Pick what you need done';
  if (stage === 'service') return errors;
  if (!BOOKABLE_DAYS.includes(d.day) || !works(p, d.day)) errors.day = 'Pick a day';
  else if (!freeWindows(p, d.day).includes(d.window)) errors.window = 'Pick an arrival window';
  if (stage === 'time') return errors;
  if (!addressOf(st, d.addressId)) errors.address = 'Choose an address';
  if (d.notes.length > NOTES_MAX) errors.notes = `Keep your notes under ${NOTES_MAX} characters`;
  return errors;
}

export const projectKey = (s: string): string => s.trim().toLowerCase();
export const openRequestFor = (st: RepairsState, project: string): QuoteRequest | undefined =>
  st.requests.find((r) => r.status === 'open' && projectKey(r.project) === projectKey(project));

/** Why a step of the quote request cannot go on, by field (empty when it can); each step checks its own fields and the ones before. */
export function quoteErrors(st: RepairsState, d: QuoteDraft, stage: 'project' | 'budget' | 'all'): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!PROJECT_TYPES.includes(d.project)) errors.project = 'Choose a project type';
  else if (openRequestFor(st, d.project)) errors.project = `You already have an open request for ${d.project.toLowerCase()}`;
  if (d.size && !SIZES.some(([s]) => s === d.size)) errors.size = 'Choose a size';
  if (!addressOf(st, d.addressId)) errors.address = 'Choose an address';
  if (stage === 'project') return errors;
  if (!BUDGETS.includes(d.budget)) errors.budget = 'Choose a budget';
  if (!TIMINGS.includes(d.timing)) errors.timing = 'Choose when you want it done';
  if (stage === 'budget') return errors;
  if (d.details.length > DETAILS_MAX) errors.details = `Keep it under ${DETAILS_MAX} characters`;
  return errors;
}
