import { dayCalendar, rng } from '../shared.js';

/** A garment (or a bag, for Wash & Fold) on an order. */
export interface Item {
  id: number;
  /** "Navy wool blazer"; near-duplicates differ by a word. */
  name: string;
  cents: number;
}

export type OrderStatus = 'scheduled' | 'cleaning' | 'out_for_delivery' | 'delivered' | 'cancelled';

/** One order: a pickup, the cleaning and the delivery back. */
export interface Order {
  id: number;
  /** Five digits, shown as "Order #48213"; near-duplicates swap two digits. */
  number: string;
  service: string;
  turnaround: string;
  status: OrderStatus;
  /** Day offset from today (0 = Monday, June 2). */
  pickupDay: number;
  /** "7–9 PM". */
  pickupWindow: string;
  deliveryDay: number;
  deliveryWindow: string;
  addressId: number;
  items: Item[];
  notes: string;
  /** On the account when the session starts. */
  seeded: boolean;
  /** Order it was scheduled or cancelled in this session (0 for an untouched seeded order). */
  seq: number;
}

/** A problem reported with an item of a delivered order. */
export interface Claim {
  id: number;
  orderId: number;
  itemId: number;
  issue: string;
  resolution: string;
  details: string;
  /** Refund or credit in cents (0 for a re-clean). */
  cents: number;
  seeded: boolean;
  seq: number;
}

/** A pickup and drop-off address. */
export interface Address {
  id: number;
  label: string;
  street: string;
  apt: string;
  zip: string;
  handoff: string;
  /** Added in this session from Add address. */
  added: boolean;
  seq: number;
}

/** How FreshFold washes, dries and finishes this customer's clothes. */
export interface Prefs {
  detergent: string;
  softener: boolean;
  water: string;
  dryer: string;
  starch: string;
  shirts: string;
  ecoSolvent: boolean;
}

/** What Schedule a pickup holds between its pages (server-side, like a real app's draft). */
export interface PickupDraft {
  service: string;
  turnaround: string;
  addressId: number;
  notes: string;
  day: number;
  window: string;
}

/** FreshFold's per-session state. Read by checkers in-process; the page never sees this object. */
export interface LaundryState {
  seed: number;
  orders: Order[];
  claims: Claim[];
  addresses: Address[];
  defaultAddressId: number;
  prefs: Prefs;
  /** Times Save preferences was tapped in this session. */
  prefsSaves: number;
  /** Pickup windows other customers have filled, per day offset. */
  full: Record<number, string[]>;
  draft: PickupDraft;
  creditCents: number;
  seq: number;
}

export const OWNER = 'Sam Rivera';
export const OWNER_EMAIL = 'sam.rivera@example.com';
export const CITY = 'San Francisco, CA';
export const CARD = 'Visa •••• 4242';
export const SUPPORT_PHONE = '(415) 555-0188';
export const EXPRESS_CENTS = 999;
export const CLAIM_DAYS = 7;
export const CREDIT_BONUS = 0.1;

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { weekdayOf, dayLabel, shortDay, dayOfMonth } = calendar;
/** "Today", "Tomorrow", "Yesterday" or the short day. */
export const relDay = (offset: number): string => (offset === 0 ? 'Today' : offset === 1 ? 'Tomorrow' : offset === -1 ? 'Yesterday' : shortDay(offset));

/** Service, what it covers, how it is priced, standard turnaround in days, whether Express (next day) is offered. */
export const SERVICES: readonly (readonly [string, string, string, number, boolean])[] = [
  ['Wash & Fold', 'Everyday laundry, washed, dried and folded', '$2.25/lb · 15 lb minimum', 2, true],
  ['Wash & Press', 'Shirts and pants laundered, pressed and hung', 'from $4.50 per shirt', 2, true],
  ['Dry Cleaning', 'Suits, dresses, coats and delicates', 'from $8.95 per item', 3, true],
  ['Bedding & Linens', 'Comforters, duvets, sheets and blankets', 'from $16.00 per item', 3, false],
  ['Alterations', 'Hems, zippers, buttons and small repairs', 'from $15.00 per item', 6, false],
];
export const SERVICE_NAMES: readonly string[] = SERVICES.map(([n]) => n);
export const serviceInfo = (name: string): (typeof SERVICES)[number] | undefined => SERVICES.find(([n]) => n === name);
export const TURNAROUNDS: readonly string[] = ['Standard', 'Express'];
/** Turnarounds a service offers. */
export const turnaroundsOf = (service: string): readonly string[] => (serviceInfo(service)?.[4] ? TURNAROUNDS : ['Standard']);

export const WEEKDAY_WINDOWS: readonly string[] = ['7–9 AM', '9–11 AM', '11 AM–1 PM', '1–3 PM', '3–5 PM', '5–7 PM', '7–9 PM'];
export const SATURDAY_WINDOWS: readonly string[] = ['8–10 AM', '10 AM–12 PM', '12–2 PM', '2–4 PM'];
/** Days a pickup can be scheduled for: tomorrow and the next week, no Sundays (same-day pickups close at 8 AM). */
export const PICKUP_DAYS: readonly number[] = [1, 2, 3, 4, 5, 7, 8];
export const windowsOf = (day: number): readonly string[] =>
  weekdayOf(day) === 'Saturday' ? SATURDAY_WINDOWS : weekdayOf(day) === 'Sunday' ? [] : WEEKDAY_WINDOWS;
/** Where a window starts, in minutes after midnight ("11 AM–1 PM" → 660). */
export const windowStart = (w: string): number => {
  const m = /^(\d{1,2})(?:\s?(AM|PM))?–(\d{1,2}) (AM|PM)$/.exec(w);
  if (!m) throw new Error(`bad window ${w}`);
  const h = Number(m[1]);
  const mer = m[2] ?? m[4];
  return ((h % 12) + (mer === 'PM' ? 12 : 0)) * 60;
};

/** Windows no other customer fills on any seed (every other window may be full, depending on the seed). */
export const ALWAYS_OPEN: Readonly<Record<number, readonly string[]>> = {
  1: ['9–11 AM', '3–5 PM', '7–9 PM'],
  2: ['7–9 AM', '1–3 PM', '5–7 PM'],
  3: ['11 AM–1 PM', '3–5 PM', '7–9 PM'],
  4: ['9–11 AM', '1–3 PM', '5–7 PM'],
  5: ['8–10 AM', '12–2 PM', '2–4 PM'],
  7: ['7–9 AM', '11 AM–1 PM', '7–9 PM'],
  8: ['9–11 AM', '3–5 PM', '5–7 PM'],
};

/** When an order picked up on `day` comes back, and in which window. */
export function deliveryOf(service: string, turnaround: string, day: number): { day: number; window: string } {
  let d = day + (turnaround === 'Express' ? 1 : (serviceInfo(service)?.[3] ?? 2));
  if (weekdayOf(d) === 'Sunday') d += 1;
  return { day: d, window: weekdayOf(d) === 'Saturday' ? '12–2 PM' : '5–7 PM' };
}

export const ISSUES: readonly (readonly [string, string])[] = [
  ['Stain not removed', 'A spot or stain is still there'],
  ['Damaged', 'Torn, burned, a button or zipper broken'],
  ['Shrunk or faded', 'Smaller, stretched or lost its colour'],
  ['Missing', "It didn't come back with the order"],
];
export const ISSUE_NAMES: readonly string[] = ISSUES.map(([n]) => n);
export const RESOLUTIONS: readonly string[] = ['Free re-clean', 'Refund to card', 'FreshFold credit'];
/** What a customer can ask for: a re-clean only fixes a stain. */
export const resolutionsFor = (issue: string): readonly string[] => (issue === 'Stain not removed' ? RESOLUTIONS : RESOLUTIONS.slice(1));

export const DETERGENTS: readonly (readonly [string, string])[] = [
  ['Classic Fresh', 'Our everyday detergent, light clean scent'],
  ['Free & Clear', 'No dyes or perfumes'],
  ['Free & Clear Sensitive', 'No dyes or perfumes, dermatologist tested for sensitive skin'],
  ['Lavender & Eucalyptus', 'Plant-based, calming scent'],
  ['Plant-Based Eco', 'Biodegradable, unscented, in refillable jugs'],
  ['Oxi Brights', 'With oxygen booster for whites and bright colours'],
];
export const DETERGENT_NAMES: readonly string[] = DETERGENTS.map(([n]) => n);
export const WATER_TEMPS: readonly string[] = ['Cold', 'Warm', 'Hot'];
export const DRYER_HEATS: readonly string[] = ['Low', 'Medium', 'High'];
export const STARCH_LEVELS: readonly string[] = ['None', 'Light', 'Medium', 'Heavy'];
export const SHIRT_FINISHES: readonly string[] = ['On hangers', 'Folded'];
/** The preferences every account starts the session with. */
export const DEFAULT_PREFS: Readonly<Prefs> = {
  detergent: 'Classic Fresh',
  softener: true,
  water: 'Cold',
  dryer: 'Medium',
  starch: 'Light',
  shirts: 'On hangers',
  ecoSolvent: false,
};

export const HANDOFFS: readonly (readonly [string, string])[] = [
  ['Hand it to me', "The driver rings and waits; we'll text when they're close"],
  ['Leave at my door', 'Bags are left at your unit door with a photo'],
  ['Leave at the front desk', 'For buildings with a doorman or concierge'],
  ['Leave in the lobby', 'Bags are left inside the main entrance'],
];
export const HANDOFF_NAMES: readonly string[] = HANDOFFS.map(([n]) => n);
/** ZIP codes FreshFold picks up in (San Francisco). */
export const SERVICE_ZIPS: readonly string[] = [
  '94102', '94103', '94104', '94105', '94107', '94108', '94109', '94110', '94111', '94112', '94114', '94115',
  '94116', '94117', '94118', '94121', '94122', '94123', '94124', '94127', '94131', '94133', '94134', '94158',
];
export const LABEL_MAX = 20;

/** Label, street, apt, ZIP, handoff (the same for every seed). */
const ADDRESSES: readonly (readonly [string, string, string, string, string])[] = [
  ['Home', '415 Larkin St', 'Apt 3B', '94102', 'Hand it to me'],
  ['Work', '101 Mission St', 'Floor 9', '94105', 'Leave at the front desk'],
];

/** Number, service, turnaround, status, pickup day, pickup window, address label, items (name, cents). */
type SeedOrder = readonly [string, string, string, OrderStatus, number, string, string, readonly (readonly [string, number])[]];
const ORDERS: readonly SeedOrder[] = [
  ['48302', 'Wash & Fold', 'Standard', 'scheduled', 2, '9–11 AM', 'Home', []],
  ['48289', 'Wash & Press', 'Standard', 'out_for_delivery', -3, '7–9 AM', 'Work', [
    ['White Oxford shirt', 450],
    ['Blue Oxford shirt', 450],
    ['Black dress pants', 795],
  ]],
  ['48277', 'Dry Cleaning', 'Standard', 'cleaning', -2, '10 AM–12 PM', 'Home', [
    ['Grey wool suit jacket', 1495],
    ['Grey wool suit trousers', 995],
    ['Green silk dress', 1895],
  ]],
  ['48231', 'Wash & Press', 'Standard', 'delivered', -4, '7–9 PM', 'Home', [
    ['White Oxford shirt', 450],
    ['White linen shirt', 550],
    ['Light blue Oxford shirt', 450],
    ['Blue striped poplin shirt', 450],
    ['Pink poplin shirt', 450],
    ['Navy polo shirt', 450],
    ['Khaki chinos', 795],
    ['Grey dress pants', 795],
  ]],
  ['48213', 'Dry Cleaning', 'Standard', 'delivered', -6, '5–7 PM', 'Home', [
    ['Navy wool blazer', 1295],
    ['Navy wool trousers', 995],
    ['Charcoal wool trousers', 995],
    ['Black cocktail dress', 1895],
    ['Ivory silk blouse', 1095],
    ['Camel wool coat', 2495],
  ]],
  ['48190', 'Wash & Fold', 'Standard', 'delivered', -6, '7–9 AM', 'Home', []],
  ['48166', 'Bedding & Linens', 'Standard', 'delivered', -9, '12–2 PM', 'Home', [
    ['Queen down comforter', 3900],
    ['Queen duvet cover', 1800],
    ['King sheet set', 1600],
    ['Wool throw blanket', 1500],
  ]],
  ['48120', 'Wash & Fold', 'Standard', 'cancelled', -10, '9–11 AM', 'Work', []],
  ['47952', 'Dry Cleaning', 'Standard', 'delivered', -16, '10 AM–12 PM', 'Home', [
    ['Navy wool blazer', 1295],
    ['White silk blouse', 1095],
    ['Black wool trousers', 995],
  ]],
  ['47810', 'Wash & Fold', 'Standard', 'delivered', -23, '8–10 AM', 'Home', []],
];
export const SEEDED_ORDERS = ORDERS;
export const ORDER_NUMBERS: readonly string[] = ORDERS.map(([n]) => n);
/** A claim already open when the session starts: order, item, issue, resolution. */
const SEEDED_CLAIM = ['48213', 'Ivory silk blouse', 'Stain not removed', 'Free re-clean'] as const;

export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
/** Order numbers as people type them: "#48213", "48213". */
export const normNumber = (s: string): string => s.trim().replace(/^#\s*/, '').replace(/^order\s*#?\s*/i, '');
export const WASH_FOLD_CENTS_PER_LB = 225;

export function initialLaundryState(seed: number): LaundryState {
  const rand = rng(seed ^ 0x1a0d3);
  const addresses: Address[] = ADDRESSES.map(([label, street, apt, zip, handoff], i) => ({ id: 11 + i, label, street, apt, zip, handoff, added: false, seq: 0 }));
  const addressId = (label: string): number => addresses.find((a) => a.label === label)?.id ?? 11;
  let itemId = 1001;
  const orders: Order[] = ORDERS.map(([number, service, turnaround, status, pickupDay, pickupWindow, label, items], i) => {
    const back = deliveryOf(service, turnaround, pickupDay);
    // Wash & Fold is priced by weight: the bag weighs a little more or less on every seed.
    const lb = Math.round((9 + rand() * 10) * 10) / 10;
    const list: Item[] =
      service === 'Wash & Fold' && status === 'delivered'
        ? [{ id: itemId++, name: `Laundry bag (${lb} lb)`, cents: Math.round(Math.max(15, lb) * WASH_FOLD_CENTS_PER_LB) }]
        : items.map(([name, cents]) => ({ id: itemId++, name, cents }));
    return {
      id: 301 + i,
      number,
      service,
      turnaround,
      status,
      pickupDay,
      pickupWindow,
      deliveryDay: back.day,
      deliveryWindow: status === 'out_for_delivery' ? '11 AM–1 PM' : back.window,
      addressId: addressId(label),
      items: list,
      notes: '',
      seeded: true,
      seq: 0,
    };
  });
  const [cNumber, cItem, cIssue, cRes] = SEEDED_CLAIM;
  const cOrder = orders.find((o) => o.number === cNumber);
  const claims: Claim[] = [
    { id: 71, orderId: cOrder?.id ?? 0, itemId: cOrder?.items.find((x) => x.name === cItem)?.id ?? 0, issue: cIssue, resolution: cRes, details: 'Small coffee spot on the left cuff', cents: 0, seeded: true, seq: 0 },
  ];
  // Other customers' pickups: about half of the windows that are not always open, different for every seed.
  const full: Record<number, string[]> = {};
  for (const day of PICKUP_DAYS) {
    const open = ALWAYS_OPEN[day] ?? [];
    full[day] = windowsOf(day).filter((w) => !open.includes(w) && rand() < 0.5);
  }
  return {
    seed,
    orders,
    claims,
    addresses,
    defaultAddressId: addresses[0]?.id ?? 11,
    prefs: { ...DEFAULT_PREFS },
    prefsSaves: 0,
    full,
    draft: emptyDraft(addresses[0]?.id ?? 11),
    creditCents: 500 + Math.floor(rand() * 40) * 50,
    seq: 0,
  };
}

export const emptyDraft = (addressId: number): PickupDraft => ({ service: '', turnaround: 'Standard', addressId, notes: '', day: -1, window: '' });

export const addressOf = (st: LaundryState, id: number): Address | undefined => st.addresses.find((a) => a.id === id);
export const orderOf = (st: LaundryState, id: number): Order | undefined => st.orders.find((o) => o.id === id);
export const orderByNumber = (st: LaundryState, n: string): Order | undefined => st.orders.find((o) => o.number === normNumber(n));

/** Windows still open on a day (not filled by other customers). */
export const openWindows = (st: LaundryState, day: number): string[] => windowsOf(day).filter((w) => !(st.full[day] ?? []).includes(w));

/** A delivered order takes claims for a week after delivery. */
export const claimable = (o: Order): boolean => o.status === 'delivered' && o.deliveryDay >= -CLAIM_DAYS;
/** The open claim on an item, if any. */
export const claimOn = (st: LaundryState, itemId: number): Claim | undefined => st.claims.find((c) => c.itemId === itemId);

/** Refund or credit for a claim, in cents. */
export function claimCents(item: Item, resolution: string): number {
  if (resolution === 'Refund to card') return item.cents;
  if (resolution === 'FreshFold credit') return Math.round(item.cents * (1 + CREDIT_BONUS));
  return 0;
}

export const orderSubtotal = (o: Order): number => o.items.reduce((s, i) => s + i.cents, 0);
export const orderTotal = (o: Order): number => orderSubtotal(o) + (o.turnaround === 'Express' ? EXPRESS_CENTS : 0);

const squash = (s: string): string => s.trim().replace(/\s+/g, ' ');
/** A street for comparing: case and spacing aside, "Street"/"St." read as "St". */
export const normStreet = (s: string): string =>
  squash(s)
    .toLowerCase()
    .replace(/[.,]/g, '')
    .replace(/\bstreet\b/g, 'st')
    .replace(/\bavenue\b/g, 'ave')
    .replace(/\bboulevard\b/g, 'blvd');

/** Why Add address cannot be saved, by field (empty when it can). */
export function addressErrors(addresses: readonly Address[], d: { label: string; street: string; apt: string; zip: string; handoff: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const street = squash(d.street);
  const zip = d.zip.trim();
  if (squash(d.label).length > LABEL_MAX) errors.label = `Use ${LABEL_MAX} characters or fewer`;
  if (!street) errors.street = 'Enter a street address';
  else if (!/^\d+[A-Za-z]?\s+\S+/.test(street)) errors.street = 'Start with the building number, like 415 Larkin St';
  if (!zip) errors.zip = 'Enter a ZIP code';
  else if (!/^\d{5}$/.test(zip)) errors.zip = 'Enter a 5-digit ZIP code';
  else if (!SERVICE_ZIPS.includes(zip)) errors.zip = `We don't pick up in ${zip} yet. FreshFold serves San Francisco.`;
  if (!errors.street && !errors.zip) {
    const dup = addresses.find((a) => normStreet(a.street) === normStreet(street) && squash(a.apt).toLowerCase() === squash(d.apt).toLowerCase() && a.zip === zip);
    if (dup) errors.street = `This address is already saved as ${dup.label}`;
  }
  if (!HANDOFF_NAMES.includes(d.handoff)) errors.handoff = 'Choose how the driver should pick up and drop off';
  return errors;
}

export const cleanText = squash;
