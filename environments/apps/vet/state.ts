import { dayCalendar, MONTH_NAMES, rng } from '../shared.js';

/** One pet on the account. */
export interface Pet {
  id: number;
  /** "Luna", "Lulu"; near-duplicates differ by a letter or two. */
  name: string;
  species: string;
  breed: string;
  /** 'Male', 'Female' or '' (not given). */
  sex: string;
  /** "May 2021" ('' when not given). */
  born: string;
  weightLb: number;
  /** Added in this session from Add a pet. */
  added: boolean;
  seq: number;
}

/** A visit at the clinic (seeded ones are on the account when the session starts). */
export interface Appointment {
  id: number;
  petId: number;
  visitType: string;
  /** Day offset from today (0 = Monday, October 6). */
  day: number;
  /** "10:30 AM". */
  time: string;
  vet: string;
  status: 'booked' | 'cancelled';
  seeded: boolean;
  cancelReason: string;
  /** Order it was booked or cancelled in this session (0 for an untouched seeded visit). */
  seq: number;
}

/** A prescription on file for a pet. */
export interface Medication {
  id: number;
  petId: number;
  name: string;
  directions: string;
  prescriber: string;
  refillsLeft: number;
  /** An expired prescription cannot be refilled. */
  expired: boolean;
  /** A refill asked for before this session, still waiting. */
  pendingSeeded: boolean;
  /** Day offset of the last fill (negative). */
  lastFilled: number;
  /** Price of a 30-day supply. */
  cents30: number;
}

/** A refill asked for in this session. */
export interface RefillRequest {
  id: number;
  medId: number;
  supply: string;
  fulfillment: string;
  note: string;
  cents: number;
  seq: number;
}

/** What Book a visit holds between its pages (server-side, like a real app's draft). */
export interface BookDraft {
  petId: number;
  visitType: string;
  notes: string;
  day: number;
  time: string;
}

/** PawPoint's per-session state. Read by checkers in-process; the page never sees this object. */
export interface VetState {
  seed: number;
  pets: Pet[];
  appointments: Appointment[];
  meds: Medication[];
  refills: RefillRequest[];
  /** Times already taken by other clients, per day offset. */
  taken: Record<number, string[]>;
  draft: BookDraft;
  rewardPoints: number;
  seq: number;
}

export const OWNER = 'Jamie Collins';
export const OWNER_EMAIL = 'jamie.collins@example.com';
export const HOME_ADDRESS = '88 Birchwood Lane, Apt 5';
export const HOME_CITY = 'Columbus, OH 43215';
export const CLINIC = 'PawPoint Animal Hospital – Maple Grove';
export const CLINIC_ADDRESS = '2140 Maple Grove Rd, Columbus, OH';
export const CLINIC_PHONE = '(614) 555-0147';
export const CARD = 'Mastercard •••• 8817';
export const LATE_CANCEL_FEE_CENTS = 2500;
export const SHIPPING_CENTS = 699;
export const NAME_MAX = 20;

/** Today is Monday, October 6, 9:41 AM. Offsets count days from today. */
export const NOW_MIN = 9 * 60 + 41;
const calendar = dayCalendar(2025, 9, 6);
export const { weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
const MONTHS = MONTH_NAMES;

export const toMin = (t: string): number => {
  const m = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(t);
  if (!m) throw new Error(`bad time ${t}`);
  return ((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)) * 60 + Number(m[2]);
};

export const SPECIES: readonly string[] = ['Dog', 'Cat', 'Rabbit', 'Guinea pig', 'Ferret', 'Bird', 'Reptile', 'Other'];
/** The heaviest weight (lb) the app accepts for each species. */
export const SPECIES_MAX_LB: Readonly<Record<string, number>> = { Dog: 250, Cat: 40, Rabbit: 20, 'Guinea pig': 5, Ferret: 6, Bird: 5, Reptile: 150, Other: 500 };
/** Species only the exotics vet sees (on Tuesdays and Thursdays). */
export const EXOTIC: readonly string[] = ['Rabbit', 'Guinea pig', 'Ferret', 'Bird', 'Reptile'];
export const EXOTIC_WEEKDAYS: readonly string[] = ['Tuesday', 'Thursday'];
export const VETS: readonly string[] = ['Dr. Anna Lee', 'Dr. Marcus Webb'];
export const EXOTICS_VET = 'Dr. Priya Shah';

/** Visit type, minutes, price in cents, one line about it. */
export const VISIT_TYPES: readonly (readonly [string, number, number, string])[] = [
  ['Wellness exam', 30, 6800, 'Yearly check-up, nose to tail'],
  ['Senior wellness exam', 45, 9500, 'For pets 7 years and older, bloodwork included'],
  ['Vaccinations', 20, 3200, 'Core and lifestyle vaccines, priced per shot'],
  ['Sick or injured', 30, 8500, 'Vomiting, limping, itching, not eating'],
  ['Nail trim', 15, 2200, 'With a veterinary technician'],
  ['Follow-up visit', 20, 4500, 'A recheck after a recent visit'],
  ['Dental cleaning', 0, 42000, 'Under anesthesia; drop off at 8:00 AM, home by 5 PM'],
];
export const VISIT_NAMES: readonly string[] = VISIT_TYPES.map(([n]) => n);
export const DENTAL = 'Dental cleaning';
export const DROP_OFF_TIME = '8:00 AM';

export const WEEKDAY_TIMES: readonly string[] = [
  '8:00 AM',
  '8:30 AM',
  '9:00 AM',
  '9:30 AM',
  '10:00 AM',
  '10:30 AM',
  '11:00 AM',
  '11:30 AM',
  '1:00 PM',
  '1:30 PM',
  '2:00 PM',
  '2:30 PM',
  '3:00 PM',
  '3:30 PM',
  '4:00 PM',
  '4:30 PM',
];
export const SATURDAY_TIMES: readonly string[] = ['9:00 AM', '9:30 AM', '10:00 AM', '10:30 AM', '11:00 AM', '11:30 AM'];
/** Days that can be booked: the next seven days the clinic is open (closed Sundays). */
export const BOOK_DAYS: readonly number[] = [1, 2, 3, 4, 5, 7, 8];
export const timesOf = (day: number): readonly string[] => (weekdayOf(day) === 'Saturday' ? SATURDAY_TIMES : weekdayOf(day) === 'Sunday' ? [] : WEEKDAY_TIMES);

/** Times that no client has taken on any seed (every other time may be taken, depending on the seed). */
export const ALWAYS_OPEN: Readonly<Record<number, readonly string[]>> = {
  1: ['10:00 AM', '2:30 PM', '4:00 PM'],
  2: ['8:30 AM', '11:30 AM', '1:30 PM', '3:00 PM'],
  3: ['9:00 AM', '2:00 PM', '4:30 PM'],
  4: ['8:00 AM', '10:30 AM', '3:30 PM'],
  5: ['9:30 AM', '11:00 AM'],
  7: ['9:00 AM', '1:00 PM', '4:30 PM'],
  8: ['11:00 AM', '2:00 PM', '3:30 PM'],
};

export const SUPPLIES: readonly (readonly [string, number])[] = [
  ['30-day supply', 1],
  ['60-day supply', 2],
  ['90-day supply', 3],
];
export const SUPPLY_NAMES: readonly string[] = SUPPLIES.map(([n]) => n);
export const FULFILLMENTS: readonly (readonly [string, string])[] = [
  ['Clinic pickup', 'Ready in 1 business day at the front desk'],
  ['Home delivery', '$6.99 shipping · arrives in 2–3 business days'],
];
export const FULFILLMENT_NAMES: readonly string[] = FULFILLMENTS.map(([n]) => n);
export const CANCEL_REASONS: readonly string[] = ['Scheduling conflict', 'My pet is feeling better', 'Booked by mistake', 'Going to another clinic', 'Other'];

/** Name, species, breed, sex, born, weight (the same for every seed but the last weigh-in). */
const PETS: readonly (readonly [string, string, string, string, string, number])[] = [
  ['Luna', 'Dog', 'Labrador Retriever', 'Female', 'May 2021', 68.2],
  ['Lulu', 'Cat', 'Domestic Shorthair', 'Female', 'February 2016', 10.4],
  ['Milo', 'Dog', 'Beagle', 'Male', 'July 2014', 27.5],
  ['Biscuit', 'Dog', 'Cavalier King Charles Spaniel', 'Male', 'January 2023', 17.1],
  ['Pepper', 'Rabbit', 'Netherland Dwarf', 'Female', 'April 2022', 2.1],
];

/** Pet, visit type, day offset, time, vet (the same for every seed). */
const APPOINTMENTS: readonly (readonly [string, string, number, string, string])[] = [
  ['Biscuit', 'Nail trim', 1, '9:00 AM', 'Dr. Marcus Webb'],
  ['Luna', 'Vaccinations', 3, '10:30 AM', 'Dr. Anna Lee'],
  ['Lulu', 'Vaccinations', 3, '11:00 AM', 'Dr. Anna Lee'],
  ['Milo', 'Dental cleaning', 8, '8:00 AM', 'Dr. Marcus Webb'],
  ['Pepper', 'Wellness exam', 10, '2:00 PM', EXOTICS_VET],
  ['Milo', 'Follow-up visit', 14, '10:00 AM', 'Dr. Marcus Webb'],
  ['Lulu', 'Follow-up visit', 18, '11:30 AM', 'Dr. Anna Lee'],
  ['Luna', 'Follow-up visit', 21, '3:30 PM', 'Dr. Anna Lee'],
];

/** Past visits shown in the history (pet, visit type, day offset, vet, summary). */
export const PAST_VISITS: readonly (readonly [string, string, number, string, string])[] = [
  ['Luna', 'Sick or injured', -9, 'Dr. Anna Lee', 'Itchy skin; started Apoquel 16 mg'],
  ['Milo', 'Senior wellness exam', -16, 'Dr. Marcus Webb', 'Bloodwork normal; dental cleaning advised'],
  ['Lulu', 'Follow-up visit', -20, 'Dr. Anna Lee', 'Thyroid recheck; Methimazole continued'],
  ['Pepper', 'Nail trim', -33, EXOTICS_VET, 'Nails trimmed; teeth look good'],
  ['Biscuit', 'Wellness exam', -58, 'Dr. Marcus Webb', 'Healthy; Heartgard Plus started'],
];

/** Vaccine, due (label), status per pet. */
export const VACCINES: Readonly<Record<string, readonly (readonly [string, string, 'due' | 'ok' | 'overdue'])[]>> = {
  Luna: [
    ['Rabies (3-year)', 'Due Oct 9, 2025', 'due'],
    ['DHPP', 'Good until Mar 2026', 'ok'],
    ['Leptospirosis', 'Due Oct 9, 2025', 'due'],
    ['Bordetella', 'Good until Jan 2026', 'ok'],
  ],
  Lulu: [
    ['Rabies (1-year)', 'Due Oct 9, 2025', 'due'],
    ['FVRCP', 'Good until Jun 2026', 'ok'],
  ],
  Milo: [
    ['Rabies (3-year)', 'Good until Aug 2027', 'ok'],
    ['DHPP', 'Good until Aug 2026', 'ok'],
    ['Bordetella', 'Overdue since Sep 2025', 'overdue'],
  ],
  Biscuit: [
    ['Rabies (1-year)', 'Good until Aug 2026', 'ok'],
    ['DHPP', 'Good until Aug 2026', 'ok'],
    ['Lyme', 'Good until Aug 2026', 'ok'],
  ],
  Pepper: [['RHDV2', 'Good until Apr 2026', 'ok']],
};

/** Pet, name, directions, prescriber, refills left, expired, refill pending, last filled, price of 30 days. */
const MEDS: readonly (readonly [string, string, string, string, number, boolean, boolean, number, number])[] = [
  ['Luna', 'Carprofen 75 mg chewable', '1 chew by mouth twice a day with food', 'Dr. Anna Lee', 2, false, false, -24, 3840],
  ['Luna', 'Apoquel 16 mg tablets', '1 tablet by mouth once a day', 'Dr. Anna Lee', 3, false, false, -9, 6420],
  ['Luna', 'Simparica Trio 44.1–88 lb', '1 chew by mouth once a month', 'Dr. Anna Lee', 0, false, false, -28, 2790],
  ['Lulu', 'Methimazole 2.5 mg tablets', '1 tablet by mouth twice a day', 'Dr. Anna Lee', 4, false, false, -20, 1890],
  ['Lulu', 'Revolution Plus 5.6–11 lb', 'Apply to the skin once a month', 'Dr. Anna Lee', 0, false, false, -35, 2450],
  ['Milo', 'Carprofen 25 mg chewable', '1 chew by mouth twice a day with food', 'Dr. Marcus Webb', 1, false, false, -26, 2260],
  ['Milo', 'Apoquel 5.4 mg tablets', '1 tablet by mouth once a day', 'Dr. Marcus Webb', 2, false, false, -15, 4800],
  ['Biscuit', 'Heartgard Plus up to 25 lb', '1 chew by mouth once a month', 'Dr. Marcus Webb', 5, false, true, -31, 1150],
  ['Biscuit', 'Gabapentin 100 mg capsules', '1 capsule 2 hours before car rides', 'Dr. Marcus Webb', 2, true, false, -70, 1480],
  ['Pepper', 'Meloxicam oral suspension 0.5 mg/mL', '0.4 mL by mouth once a day', EXOTICS_VET, 1, false, false, -18, 1650],
];

export const PET_NAMES: readonly string[] = PETS.map(([n]) => n);
export const MED_NAMES: readonly string[] = MEDS.map(([, n]) => n);
export const SEEDED_APPOINTMENTS = APPOINTMENTS;

export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
export const isExotic = (p: Pet): boolean => EXOTIC.includes(p.species);
/** Whether a pet can be seen on that day (the exotics vet works Tuesdays and Thursdays). */
export const dayFor = (p: Pet | undefined, day: number): boolean => timesOf(day).length > 0 && (!p || !isExotic(p) || EXOTIC_WEEKDAYS.includes(weekdayOf(day)));
export const visitInfo = (name: string): readonly [string, number, number, string] | undefined => VISIT_TYPES.find(([n]) => n === name);
export const supplyCents = (m: Medication, supply: string): number => {
  const months = SUPPLIES.find(([n]) => n === supply)?.[1] ?? 0;
  // Longer supplies are cheaper per month: 5% off 60 days, 10% off 90 days.
  return Math.round(m.cents30 * months * (months === 3 ? 0.9 : months === 2 ? 0.95 : 1));
};
export const refillCents = (m: Medication, supply: string, fulfillment: string): number => supplyCents(m, supply) + (fulfillment === 'Home delivery' ? SHIPPING_CENTS : 0);

export function initialVetState(seed: number): VetState {
  const rand = rng(seed ^ 0x7e7c11);
  const pets: Pet[] = PETS.map(([name, species, breed, sex, born, weightLb], i) => ({
    id: 201 + i,
    name,
    species,
    breed,
    sex,
    born,
    // The last weigh-in moves by a tenth or two between seeds.
    weightLb: Math.round((weightLb + (Math.floor(rand() * 5) - 2) / 10) * 10) / 10,
    added: false,
    seq: 0,
  }));
  const petId = (name: string): number => pets.find((p) => p.name === name)?.id ?? 0;
  const appointments: Appointment[] = APPOINTMENTS.map(([pet, visitType, day, time, vet], i) => ({
    id: 501 + i,
    petId: petId(pet),
    visitType,
    day,
    time,
    vet,
    status: 'booked',
    seeded: true,
    cancelReason: '',
    seq: 0,
  }));
  const meds: Medication[] = MEDS.map(([pet, name, directions, prescriber, refillsLeft, expired, pendingSeeded, lastFilled, cents30], i) => ({
    id: 301 + i,
    petId: petId(pet),
    name,
    directions,
    prescriber,
    refillsLeft,
    expired,
    pendingSeeded,
    lastFilled,
    cents30,
  }));
  // Other clients' bookings: about half of the times that are not always open, different for every seed.
  const taken: Record<number, string[]> = {};
  for (const day of BOOK_DAYS) {
    const open = ALWAYS_OPEN[day] ?? [];
    taken[day] = timesOf(day).filter((t) => !open.includes(t) && rand() < 0.5);
  }
  return {
    seed,
    pets,
    appointments,
    meds,
    refills: [],
    taken,
    draft: { petId: 0, visitType: '', notes: '', day: -1, time: '' },
    rewardPoints: 240 + Math.floor(rand() * 60) * 5,
    seq: 0,
  };
}

export const petOf = (st: VetState, id: number): Pet | undefined => st.pets.find((p) => p.id === id);

/** Times still free on a day: not taken by other clients and not one of this account's booked visits. */
export function freeTimes(st: VetState, day: number): string[] {
  const taken = new Set([...(st.taken[day] ?? []), ...st.appointments.filter((a) => a.status === 'booked' && a.day === day).map((a) => a.time)]);
  return timesOf(day).filter((t) => !taken.has(t) && !(day === 0 && toMin(t) <= NOW_MIN));
}

/** Times offered for a visit type on a day: dental cleanings are drop-offs at 8:00 AM only. */
export const offeredTimes = (st: VetState, day: number, visitType: string): string[] =>
  freeTimes(st, day).filter((t) => visitType !== DENTAL || t === DROP_OFF_TIME);

/** Who sees the pet at that time. */
export function vetFor(p: Pet | undefined, day: number, time: string): string {
  if (p && isExotic(p)) return EXOTICS_VET;
  return VETS[(day + Math.floor(toMin(time) / 60)) % VETS.length] ?? 'Dr. Anna Lee';
}

/** A medication can be refilled: refills left, not expired, no refill already waiting. */
export const refillable = (st: VetState, m: Medication): boolean => m.refillsLeft > 0 && !m.expired && !m.pendingSeeded && !st.refills.some((r) => r.medId === m.id);

/** Whole years between a "May 2021" birth month and October 2025. */
export function ageOf(born: string): string {
  const m = /^([A-Za-z]+) (\d{4})$/.exec(born);
  if (!m) return '';
  const month = MONTHS.indexOf(m[1] ?? '');
  let years = 2025 - Number(m[2]);
  if (month > 9) years -= 1;
  if (years < 1) return `${Math.max(1, 9 - month + (2025 - Number(m[2])) * 12)} months`;
  return years === 1 ? '1 year' : `${years} years`;
}

/** Parses a typed weight in pounds ("12.5", "12.5 lb"); NaN when it is not a number. */
export const parseWeight = (s: string): number => {
  const t = s.trim().replace(/\s*(lbs?|pounds?)\.?$/i, '');
  return /^\d{1,3}(\.\d{1,2})?$/.test(t) || /^\.\d{1,2}$/.test(t) ? Number(t) : Number.NaN;
};

/** Why the Add a pet form cannot be saved, by field (empty when it can). */
export function petErrors(pets: readonly Pet[], d: { name: string; species: string; breed: string; weight: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = d.name.trim().replace(/\s+/g, ' ');
  const dup = pets.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!name) errors.name = "Enter your pet's name";
  else if (name.length > NAME_MAX) errors.name = `Use ${NAME_MAX} characters or fewer`;
  else if (dup) errors.name = `You already have a pet named ${dup.name}`;
  if (!SPECIES.includes(d.species)) errors.species = 'Choose a species';
  if (!d.breed.trim()) errors.breed = "Enter a breed, or Mixed breed if you're not sure";
  const w = parseWeight(d.weight);
  if (!d.weight.trim()) errors.weight = 'Enter a weight';
  else if (Number.isNaN(w)) errors.weight = 'Enter the weight in pounds, like 12.5';
  else if (w <= 0) errors.weight = 'Enter a weight above 0';
  else if (SPECIES.includes(d.species) && w > (SPECIES_MAX_LB[d.species] ?? 500))
    errors.weight = `That's heavier than we'd expect for a ${d.species.toLowerCase()}. Check the weight in pounds.`;
  return errors;
}
