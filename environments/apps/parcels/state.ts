import { rng } from '../shared.js';

/** How big a package is; lockers take Small and Medium, stores up to Large, Oversize goes to the door only. */
export type Size = 'Small' | 'Medium' | 'Large' | 'Oversize';
export type Status = 'label' | 'transit' | 'out' | 'delivered';

/** Where an incoming package is going now. */
export type Plan = { kind: 'home'; day: number } | { kind: 'point'; pointId: number };

/** One package on the account (incoming or delivered). */
export interface Parcel {
  id: number;
  /** "PH" and ten digits, no spaces. */
  tracking: string;
  /** Who sent it ("Zara", "Zara Home"); near-duplicates share a prefix. */
  sender: string;
  /** Name the user gave it when tracking it by number (empty for packages linked to the account). */
  nickname: string;
  size: Size;
  weightLb: number;
  status: Status;
  /** Day offset from today (0 = Tuesday, June 10) of the original delivery estimate, or of the delivery. */
  eta: number;
  plan: Plan;
  signature: boolean;
  perishable: boolean;
  /** Safe place set for this package ('' = none). */
  safePlace: string;
  /** Where a delivered package was left. */
  leftAt: string;
  /** Added by tracking number in this session. */
  added: boolean;
  seq: number;
}

/** One change made to a package's delivery in this session. */
export interface Change {
  parcelId: number;
  kind: 'day' | 'point' | 'safe';
  /** Day label, point name or safe place. */
  value: string;
  seq: number;
}

export interface PickupPoint {
  id: number;
  name: string;
  address: string;
  kind: 'locker' | 'store';
  hours: string;
  /** Tenths of a mile from home. */
  tenths: number;
  /** A locker with no free compartments. */
  full: boolean;
}

/** A label bought in this session from the Send tab. */
export interface Shipment {
  id: number;
  tracking: string;
  recipient: string;
  street: string;
  apt: string;
  zip: string;
  size: string;
  service: string;
  cents: number;
  seq: number;
}

/** What the Send form holds between its pages (server-side, like a real app's draft). */
export interface Draft {
  recipient: string;
  street: string;
  apt: string;
  zip: string;
  size: string;
  service: string;
}

/** ParcelHub's per-session state. Read by checkers in-process; the page never sees this object. */
export interface ParcelState {
  seed: number;
  parcels: Parcel[];
  points: PickupPoint[];
  changes: Change[];
  shipments: Shipment[];
  draft: Draft;
  seq: number;
}

/** Today is Tuesday, June 10, 9:41 AM. Offsets count days from today. */
export const WEEKDAYS: readonly string[] = ['Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Monday'];
export const HOME_ADDRESS = '412 Elm Street, Apt 3B';
export const HOME_CITY = 'Portland, OR 97205';
export const CARD = 'Visa •••• 4242';
export const SATURDAY_FEE_CENTS = 499;
/** How many days past the original estimate a delivery can be moved. */
export const RESCHEDULE_WINDOW = 6;

/** "Thursday, June 12" for a day offset (June has 30 days; offsets stay within it). */
export const dayLabel = (offset: number): string => `${WEEKDAYS[((offset % 7) + 7) % 7] ?? ''}, June ${10 + offset}`;
/** "Thu, Jun 12". */
export const shortDay = (offset: number): string => `${(WEEKDAYS[((offset % 7) + 7) % 7] ?? '').slice(0, 3)}, Jun ${10 + offset}`;
export const isSunday = (offset: number): boolean => WEEKDAYS[((offset % 7) + 7) % 7] === 'Sunday';
export const isSaturday = (offset: number): boolean => WEEKDAYS[((offset % 7) + 7) % 7] === 'Saturday';

/** Sender, tracking, size, weight, status, day offset, signature, perishable (the same for every seed). */
const INCOMING: readonly (readonly [string, string, Size, number, Status, number, boolean, boolean])[] = [
  ['Apple', 'PH3920418856', 'Small', 2, 'out', 0, true, false],
  ['Best Buy', 'PH5108327764', 'Medium', 9, 'transit', 1, true, false],
  ['HelloFresh', 'PH8830215947', 'Large', 14, 'transit', 1, false, true],
  ['Buy Buy Baby', 'PH5180237746', 'Large', 18, 'transit', 1, false, false],
  ['Zara', 'PH2047719305', 'Medium', 3, 'transit', 2, false, false],
  ['Chewy', 'PH6613048820', 'Large', 31, 'transit', 2, false, false],
  ['Target', 'PH7725190433', 'Medium', 6, 'transit', 2, false, false],
  ['Zara Home', 'PH2074719350', 'Large', 12, 'transit', 3, false, false],
  ['Sephora', 'PH9046672811', 'Small', 1, 'transit', 3, false, false],
  ['IKEA', 'PH1189053372', 'Oversize', 64, 'transit', 4, true, false],
  ['Warby Parker', 'PH4402968117', 'Small', 1, 'transit', 6, false, false],
  ['Nike', 'PH3318820459', 'Medium', 4, 'label', 7, false, false],
];

/** Sender, tracking, size, weight, day offset (negative: days ago), where it was left. */
const DELIVERED: readonly (readonly [string, string, Size, number, number, string])[] = [
  ['Uniqlo', 'PH6027731148', 'Small', 2, -1, 'Front door'],
  ['Amazon', 'PH1560934472', 'Medium', 5, -3, 'Handed to resident'],
  ['Zara', 'PH2047719035', 'Small', 1, -5, 'Front door'],
  ['Chewy', 'PH6613084402', 'Large', 31, -8, 'Building reception'],
  ['Etsy', 'PH9952310648', 'Small', 1, -12, 'Mailbox'],
];

/**
 * Packages that exist in the network but are not on the account yet: they can be added by tracking number.
 * Tracking, sender, size, weight, status, day offset. Two numbers differ only by their last two digits.
 */
export const TRACKABLE: readonly (readonly [string, string, Size, number, Status, number])[] = [
  ['PH4417092635', 'Maple & Loom', 'Medium', 7, 'transit', 3],
  ['PH4417092653', 'retro_finds (eBay)', 'Small', 2, 'transit', 5],
  ['PH7302815546', 'Patagonia', 'Medium', 3, 'transit', 2],
  ['PH9150246873', 'Ruth Alvarez', 'Medium', 6, 'transit', 4],
  ['PH6028371194', 'Lenovo', 'Medium', 8, 'label', 6],
  ['PH2849105537', 'Fabletics', 'Small', 2, 'transit', 1],
];

/** Name, address, kind, hours, tenths of a mile, full (the same for every seed). */
const POINTS: readonly (readonly [string, string, 'locker' | 'store', string, number, boolean])[] = [
  ['ParcelHub Locker – Union Station', '800 NW 6th Ave', 'locker', 'Open 24 hours', 4, false],
  ['CVS Pharmacy – Oak Ave', '1021 Oak Ave', 'store', '8 AM – 10 PM', 6, false],
  ['ParcelHub Locker – Union Square', '55 Union Sq', 'locker', 'Open 24 hours', 7, true],
  ['Corner Market', '318 Elm Street', 'store', '7 AM – 11 PM', 9, false],
  ['CVS Pharmacy – Oakland Ave', '2200 Oakland Ave', 'store', '8 AM – 9 PM', 12, false],
  ['Elm Street Hardware', '1460 Elm Street', 'store', '8 AM – 6 PM, closed Sunday', 14, false],
  ['ParcelHub Locker – Greenway Mall', '9300 Greenway Blvd, Level 1', 'locker', '10 AM – 9 PM', 18, false],
  ['Corner Mart & Deli', '77 SE Division St', 'store', '6 AM – midnight', 21, false],
  ['Walgreens – Harbor Blvd', '4410 Harbor Blvd', 'store', 'Open 24 hours', 26, false],
  ['ParcelHub Counter – Riverside Depot', '12 Riverside Industrial Pkwy', 'store', '8 AM – 8 PM', 35, false],
];

export const SIZES: readonly (readonly [string, string, number])[] = [
  ['Envelope', 'Documents, up to 1 lb', 0],
  ['Small box', 'Up to 5 lb, shoebox size', 1],
  ['Medium box', 'Up to 20 lb', 2],
  ['Large box', 'Up to 50 lb', 3],
];
/** Service, delivery time, price in cents per size (Envelope, Small, Medium, Large). */
export const SERVICES: readonly (readonly [string, string, readonly number[]])[] = [
  ['Ground', '3–5 business days', [695, 945, 1420, 2175]],
  ['2-Day', '2 business days', [1195, 1640, 2310, 3480]],
  ['Overnight', 'Next business day by 10:30 AM', [2450, 3190, 4275, 6120]],
];
/** ZIP codes the app knows (it shows the city under the field). */
export const ZIPS: Readonly<Record<string, string>> = {
  '97205': 'Portland, OR',
  '97214': 'Portland, OR',
  '97217': 'Portland, OR',
  '98109': 'Seattle, WA',
  '98190': 'Seattle, WA',
  '94110': 'San Francisco, CA',
  '94101': 'San Francisco, CA',
  '80302': 'Boulder, CO',
  '60614': 'Chicago, IL',
  '60641': 'Chicago, IL',
  '78704': 'Austin, TX',
  '10025': 'New York, NY',
  '02139': 'Cambridge, MA',
  '30306': 'Atlanta, GA',
};
export const SAFE_PLACES: readonly string[] = ['Front door', 'Back door', 'Porch', 'Garage', 'Building reception'];
export const NICKNAME_MAX = 24;

export const SENDERS: readonly string[] = INCOMING.map(([s]) => s);
export const POINT_NAMES: readonly string[] = POINTS.map(([n]) => n);
export const SIZE_NAMES: readonly string[] = SIZES.map(([n]) => n);
export const SERVICE_NAMES: readonly string[] = SERVICES.map(([n]) => n);

export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
/** Normalises a typed tracking number: upper case, no spaces or dashes. */
export const normTracking = (s: string): string => s.toUpperCase().replace(/[\s-]/g, '');
export const TRACKING_RE = /^PH\d{10}$/;

const ABBREV: Readonly<Record<string, string>> = {
  st: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  dr: 'drive',
  ct: 'court',
  ln: 'lane',
  blvd: 'boulevard',
  pl: 'place',
  hwy: 'highway',
  pkwy: 'parkway',
};
/** Compares street addresses the way a courier would: case, punctuation and common abbreviations aside. */
export const normStreet = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[.,#]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ABBREV[w] ?? w)
    .join(' ');

export const priceCents = (service: string, size: string): number => {
  const s = SERVICES.find(([n]) => n === service);
  const i = SIZES.findIndex(([n]) => n === size);
  return s && i >= 0 ? (s[2][i] ?? 0) : 0;
};

/** Whether the package's delivery can still be changed at all. */
export const changeable = (p: Parcel): boolean => p.status === 'transit';
export const canReschedule = (p: Parcel): boolean => changeable(p) && !p.perishable;
export const canRedirect = (p: Parcel): boolean => changeable(p) && !p.perishable && p.size !== 'Oversize';
export const canSafePlace = (p: Parcel): boolean => changeable(p) && !p.signature && p.plan.kind === 'home';
/** Whether a point can hold this package (lockers take Small and Medium only; a full locker takes nothing). */
export const pointTakes = (pt: PickupPoint, p: Parcel): boolean => !pt.full && (pt.kind === 'store' || p.size === 'Small' || p.size === 'Medium');

/** Days a package can be moved to: the original estimate up to six days past it, no Sundays, not the current day. */
export function rescheduleDays(p: Parcel): number[] {
  const current = p.plan.kind === 'home' ? p.plan.day : -1;
  const out: number[] = [];
  for (let d = p.eta; d <= p.eta + RESCHEDULE_WINDOW; d++) if (!isSunday(d) && d !== current) out.push(d);
  return out;
}

export function initialParcelState(seed: number): ParcelState {
  const rand = rng(seed ^ 0x5a1c07);
  const parcels: Parcel[] = [
    ...INCOMING.map(([sender, tracking, size, weightLb, status, eta, signature, perishable], i) => ({
      id: 201 + i,
      tracking,
      sender,
      nickname: '',
      size,
      weightLb,
      status,
      eta,
      plan: { kind: 'home', day: eta } as Plan,
      signature,
      perishable,
      safePlace: '',
      leftAt: '',
      added: false,
      seq: 0,
    })),
    ...DELIVERED.map(([sender, tracking, size, weightLb, eta, leftAt], i) => ({
      id: 301 + i,
      tracking,
      sender,
      nickname: '',
      size,
      weightLb,
      status: 'delivered' as Status,
      eta,
      plan: { kind: 'home', day: eta } as Plan,
      signature: false,
      perishable: false,
      safePlace: '',
      leftAt,
      added: false,
      seq: 0,
    })),
  ];
  // Seeds move the points a little (the list order near home changes); which point takes what does not.
  const points = POINTS.map(([name, address, kind, hours, tenths, full], i) => ({
    id: 71 + i,
    name,
    address,
    kind,
    hours,
    tenths: Math.max(1, tenths + Math.floor(rand() * 3) - 1),
    full,
  }));
  return { seed, parcels, points, changes: [], shipments: [], draft: { recipient: '', street: '', apt: '', zip: '', size: '', service: '' }, seq: 0 };
}

/** The name a package is shown under. */
export const titleOf = (p: Parcel): string => p.nickname || p.sender;

/** Why the Send form cannot go on, by field (empty when it can). */
export function sendErrors(d: Pick<Draft, 'recipient' | 'street' | 'zip' | 'size'>): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = d.recipient.trim();
  if (!name) errors.recipient = "Enter the recipient's name";
  else if (!name.includes(' ')) errors.recipient = 'Enter first and last name';
  const street = d.street.trim();
  if (!street) errors.street = 'Enter a street address';
  else if (!/^\d+\s+\S/.test(street)) errors.street = 'Start with the house or building number';
  const zip = d.zip.trim();
  if (!zip) errors.zip = 'Enter a ZIP code';
  else if (!/^\d{5}$/.test(zip)) errors.zip = 'Enter a 5-digit ZIP code';
  else if (!ZIPS[zip]) errors.zip = "We don't deliver to this ZIP code yet";
  if (!SIZE_NAMES.includes(d.size)) errors.size = 'Choose a package size';
  return errors;
}
