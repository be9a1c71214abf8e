import { dayCalendar, rng, shuffle } from '../shared.js';

/** A room type at a hotel. */
export interface Room {
  id: number;
  hotelId: number;
  /** "Standard King", "Deluxe King"; near-duplicates within and across hotels. */
  name: string;
  bed: string;
  sleeps: number;
  sqft: number;
  /** One line about it ("Harbor view, floors 8–12"). */
  perk: string;
  /** Nightly rate before taxes (moves by a few dollars between seeds). */
  cents: number;
  /** A refundable rate can be cancelled for free until 48 hours before check-in. */
  refundable: boolean;
  soldOut: boolean;
}

/** A hotel in the Explore list. */
export interface Hotel {
  id: number;
  /** "Harbor View Hotel", "Harborview Suites"; near-duplicates differ by a word. */
  name: string;
  city: string;
  area: string;
  /** Hotel class (stars). */
  klass: number;
  /** Guest rating out of 5. */
  rating: number;
  reviews: number;
  amenities: readonly string[];
  /** Parking per night in cents (0 when there is none). */
  parkingCents: number;
  rooms: Room[];
}

/** What online check-in recorded. */
export interface CheckIn {
  arrival: string;
  /** As typed, upper-cased and trimmed ('' when none). */
  plate: string;
  phone: string;
  seq: number;
}

/** A stay booked on the account (seeded ones exist when the session starts). */
export interface Booking {
  id: number;
  /** Confirmation code shown on the booking. */
  code: string;
  hotelId: number;
  roomId: number;
  /** Day offset of check-in (0 = Monday, June 2). */
  checkin: number;
  nights: number;
  guests: number;
  /** Total with taxes. */
  cents: number;
  refundable: boolean;
  status: 'booked' | 'cancelled';
  seeded: boolean;
  cancelReason: string;
  requests: string;
  checkedIn: CheckIn | null;
  /** Order it was booked, cancelled or checked in in this session (0 for an untouched seeded booking). */
  seq: number;
}

/** A guest review of a past stay. */
export interface Review {
  stars: number;
  title: string;
  text: string;
  tripType: string;
  /** Written before this session. */
  seeded: boolean;
  seq: number;
}

/** A stay that is over. */
export interface PastStay {
  id: number;
  hotelId: number;
  roomName: string;
  checkin: number;
  nights: number;
  cents: number;
  review: Review | null;
}

/** What a booking holds between its pages (server-side, like a real app's draft). */
export interface BookDraft {
  hotelId: number;
  roomId: number;
  checkin: number;
  nights: number;
  guests: number;
}

/** Lodgerra's per-session state. Read by checkers in-process; the page never sees this object. */
export interface HotelState {
  seed: number;
  hotels: Hotel[];
  /** Explore order ("Recommended"), different for every seed. */
  order: number[];
  bookings: Booking[];
  past: PastStay[];
  draft: BookDraft;
  points: number;
  seq: number;
}

export const GUEST = 'Maya Thompson';
export const GUEST_EMAIL = 'maya.thompson@example.com';
export const GUEST_PHONE = '(206) 555-0182';
export const CARD = 'Visa •••• 4242';
export const TAX_RATE = 0.14;
export const TITLE_MAX = 60;
export const MAX_NIGHTS = 14;
export const CHECKIN_OPENS_DAYS = 5;
export const FREE_CANCEL_HOURS = 48;

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;

/** Check-in can be any day from today to the end of July (offset 59). */
export const LAST_CHECKIN = 59;
export const CHECKIN_DAYS: readonly number[] = Array.from({ length: LAST_CHECKIN + 1 }, (_, i) => i);
/** Months shown in the date picker: [label, first offset, days in month, weekday (0 = Sunday) of the 1st]. */
export const MONTHS: readonly (readonly [string, number, number, number])[] = [
  ['June 2025', -1, 30, 0],
  ['July 2025', 29, 31, 2],
];

export const CITIES: readonly string[] = ['Seattle', 'Portland', 'San Diego'];

/** Hotel name, city, area, class, rating, reviews, amenities, parking per night (cents), rooms. */
type RoomRow = readonly [string, string, number, number, string, number, boolean, boolean];
const HOTELS: readonly (readonly [string, string, string, number, number, number, readonly string[], number, readonly RoomRow[]])[] = [
  [
    'Harbor View Hotel',
    'Seattle',
    'Waterfront',
    4,
    4.5,
    1284,
    ['Free Wi-Fi', 'Fitness center', 'Restaurant', 'Valet parking'],
    4200,
    [
      // name, bed, sleeps, sqft, perk, cents, refundable, sold out
      ['Standard Queen', '1 queen bed', 2, 280, 'City view', 18900, true, false],
      ['Standard King', '1 king bed', 2, 300, 'City view', 19900, true, false],
      ['Deluxe King', '1 king bed', 2, 360, 'Harbor view, floors 8–12', 24900, true, false],
      ['King Suite', '1 king bed + sofa bed', 4, 620, 'Corner suite with a harbor view', 38900, true, true],
    ],
  ],
  [
    'Harborview Suites',
    'Seattle',
    'Belltown',
    3,
    4.2,
    836,
    ['Free Wi-Fi', 'Kitchenette', 'Free breakfast', 'Self parking'],
    2800,
    [
      ['Studio Suite', '1 queen bed', 2, 410, 'Kitchenette', 17500, true, false],
      ['One-Bedroom Suite', '1 king bed + sofa bed', 4, 560, 'Separate living room', 22900, true, false],
      ['Two-Bedroom Suite', '1 king bed + 2 queen beds', 6, 880, 'Full kitchen', 31900, false, false],
    ],
  ],
  [
    'Pike & Pine Hotel',
    'Seattle',
    'Capitol Hill',
    3,
    4.6,
    652,
    ['Free Wi-Fi', 'Rooftop bar', 'Pet friendly'],
    3500,
    [
      ['Cozy Queen', '1 queen bed', 2, 210, 'Compact room, interior view', 15900, true, false],
      ['Standard King', '1 king bed', 2, 290, 'Street view', 18500, true, false],
      ['Deluxe King', '1 king bed', 2, 340, 'Balcony', 21900, false, false],
    ],
  ],
  [
    'The Linden House',
    'Portland',
    'Pearl District',
    4,
    4.7,
    947,
    ['Free Wi-Fi', 'Garden', 'Restaurant', 'Valet parking'],
    3800,
    [
      ['Classic Queen', '1 queen bed', 2, 260, 'Courtyard view', 16900, true, false],
      ['Classic King', '1 king bed', 2, 290, 'Courtyard view', 17900, true, false],
      ['Garden King', '1 king bed', 2, 350, 'Opens onto the garden', 20900, true, false],
    ],
  ],
  [
    'Linden Park Inn',
    'Portland',
    'Hollywood District',
    2,
    4.0,
    512,
    ['Free Wi-Fi', 'Free breakfast', 'Free parking'],
    0,
    [
      ['Standard Queen', '1 queen bed', 2, 250, 'Park view', 12900, true, false],
      ['Standard King', '1 king bed', 2, 270, 'Park view', 13900, true, false],
      ['Double Queen', '2 queen beds', 4, 340, 'Good for families', 14500, true, false],
    ],
  ],
  [
    'Alder & Pine Lodge',
    'Portland',
    'Southeast',
    3,
    4.4,
    389,
    ['Free Wi-Fi', 'Fireplace lounge', 'Bike rental', 'Self parking'],
    1500,
    [
      ['Queen Room', '1 queen bed', 2, 240, 'Forest-themed room', 14900, true, false],
      ['King Room', '1 king bed', 2, 280, 'Forest-themed room', 15900, true, false],
      ['Loft Suite', '1 king bed + 1 queen bed', 4, 520, 'Two floors, with a fireplace', 25900, false, false],
    ],
  ],
  [
    'Casa Solana',
    'San Diego',
    'Mission Beach',
    3,
    4.3,
    1105,
    ['Free Wi-Fi', 'Outdoor pool', 'Beach access', 'Self parking'],
    3000,
    [
      ['Standard King', '1 king bed', 2, 300, 'Garden view', 19900, true, false],
      ['Double Queen', '2 queen beds', 4, 360, 'Garden view', 21500, true, false],
      ['Ocean View King', '1 king bed', 2, 330, 'Ocean view with a balcony', 27900, false, false],
    ],
  ],
  [
    'Casa Serena',
    'San Diego',
    'Old Town',
    4,
    4.6,
    743,
    ['Free Wi-Fi', 'Outdoor pool', 'Spa', 'Valet parking'],
    3900,
    [
      ['Courtyard Queen', '1 queen bed', 2, 280, 'Courtyard view', 18500, true, false],
      ['Courtyard King', '1 king bed', 2, 300, 'Courtyard view', 19500, true, false],
      ['Ocean View King', '1 king bed', 2, 340, 'Ocean view from the top floor', 28900, true, true],
    ],
  ],
  [
    'Bluewater Bay Resort',
    'San Diego',
    'Shelter Island',
    4,
    4.5,
    1562,
    ['Free Wi-Fi', 'Outdoor pool', 'Marina', 'Resort fee included'],
    3200,
    [
      ['Garden King', '1 king bed', 2, 360, 'Garden patio', 23900, true, false],
      ['Bay View King', '1 king bed', 2, 380, 'Bay view balcony', 29900, true, false],
      ['Bay View Double Queen', '2 queen beds', 4, 430, 'Bay view balcony', 31900, true, false],
    ],
  ],
];

/** Hotel, room, check-in offset, nights, guests (the same for every seed). */
const BOOKINGS: readonly (readonly [string, string, number, number, number])[] = [
  ['Casa Serena', 'Courtyard King', 1, 2, 2],
  ['Harbor View Hotel', 'Deluxe King', 4, 2, 2],
  ['The Linden House', 'Classic Queen', 10, 2, 1],
  ['Harborview Suites', 'One-Bedroom Suite', 17, 3, 3],
  ['Linden Park Inn', 'Double Queen', 25, 2, 4],
  ['Harbor View Hotel', 'Standard King', 31, 3, 2],
  ['Casa Solana', 'Ocean View King', 38, 3, 2],
];

/** Hotel, room, check-in offset, nights, seeded review (stars, title, text, trip type) or null. */
const PAST: readonly (readonly [string, string, number, number, readonly [number, string, string, string] | null])[] = [
  ['Alder & Pine Lodge', 'King Room', -10, 2, null],
  ['Harbor View Hotel', 'Standard Queen', -17, 2, null],
  ['The Linden House', 'Garden King', -31, 2, [5, 'Lovely garden room', 'Quiet, spotless and the breakfast was worth it.', 'Couple']],
  ['Harborview Suites', 'Studio Suite', -38, 2, null],
  ['Linden Park Inn', 'Standard Queen', -80, 2, null],
  ['Casa Solana', 'Standard King', -102, 3, null],
];

export const HOTEL_NAMES: readonly string[] = HOTELS.map(([n]) => n);
export const SEEDED_BOOKINGS = BOOKINGS;
export const PAST_STAYS = PAST;

export const ARRIVALS: readonly string[] = ['3:00 PM', '4:00 PM', '5:00 PM', '6:00 PM', '7:00 PM', '8:00 PM', '9:00 PM', '10:00 PM', 'After 10 PM'];
export const CANCEL_REASONS: readonly string[] = ['Change of plans', 'Found a better price', 'Booked by mistake', 'Booking a different hotel', 'Other'];
export const TRIP_TYPES: readonly string[] = ['Business', 'Couple', 'Family', 'Friends', 'Solo'];
export const STAR_WORDS: readonly string[] = ['', 'Terrible', 'Poor', 'Okay', 'Very good', 'Excellent'];

export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
export const dollars = (cents: number): string => `$${Math.round(cents / 100)}`;
export const totalCents = (room: Room, nights: number): number => Math.round(room.cents * nights * (1 + TAX_RATE));
export const nightsText = (n: number): string => (n === 1 ? '1 night' : `${n} nights`);

export function initialHotelState(seed: number): HotelState {
  const rand = rng(seed ^ 0x4077e1);
  let roomId = 401;
  const hotels: Hotel[] = HOTELS.map(([name, city, area, klass, rating, reviews, amenities, parkingCents, rooms], i) => {
    const id = 101 + i;
    return {
      id,
      name,
      city,
      area,
      klass,
      rating,
      reviews: reviews + Math.floor(rand() * 20),
      amenities,
      parkingCents,
      rooms: rooms.map(([rname, bed, sleeps, sqft, perk, cents, refundable, soldOut]) => ({
        id: roomId++,
        hotelId: id,
        name: rname,
        bed,
        sleeps,
        sqft,
        perk,
        // Rates move by up to $12 a night between seeds.
        cents: cents + (Math.floor(rand() * 7) - 3) * 400,
        refundable,
        soldOut,
      })),
    };
  });
  const hotelOf = (name: string): Hotel => hotels.find((h) => h.name === name) as Hotel;
  const roomOf = (h: Hotel, name: string): Room => h.rooms.find((r) => r.name === name) as Room;
  const bookings: Booking[] = BOOKINGS.map(([hotel, room, checkin, nights, guests], i) => {
    const h = hotelOf(hotel);
    const r = roomOf(h, room);
    return {
      id: 501 + i,
      code: `LG${String(100000 + Math.floor(rand() * 900000))}`,
      hotelId: h.id,
      roomId: r.id,
      checkin,
      nights,
      guests,
      cents: totalCents(r, nights),
      refundable: r.refundable,
      status: 'booked',
      seeded: true,
      cancelReason: '',
      requests: '',
      checkedIn: null,
      seq: 0,
    };
  });
  const past: PastStay[] = PAST.map(([hotel, room, checkin, nights, review], i) => {
    const h = hotelOf(hotel);
    const r = roomOf(h, room);
    return {
      id: 701 + i,
      hotelId: h.id,
      roomName: room,
      checkin,
      nights,
      cents: totalCents(r, nights),
      review: review ? { stars: review[0], title: review[1], text: review[2], tripType: review[3], seeded: true, seq: 0 } : null,
    };
  });
  return {
    seed,
    hotels,
    order: shuffle(
      hotels.map((h) => h.id),
      rand,
    ),
    bookings,
    past,
    draft: { hotelId: 0, roomId: 0, checkin: -1, nights: 1, guests: 2 },
    points: 12000 + Math.floor(rand() * 80) * 50,
    seq: 0,
  };
}

export const hotelOf = (st: HotelState, id: number): Hotel | undefined => st.hotels.find((h) => h.id === id);
export const hotelByName = (st: HotelState, name: string): Hotel | undefined => st.hotels.find((h) => h.name.toLowerCase() === name.trim().toLowerCase());
export const roomOf = (st: HotelState, id: number): Room | undefined => st.hotels.flatMap((h) => h.rooms).find((r) => r.id === id);
/** Rooms that can be booked at a hotel (every room type not sold out). */
export const bookableRooms = (h: Hotel): Room[] => h.rooms.filter((r) => !r.soldOut);

/** Online check-in opens five days before check-in and stays open until the check-in day. */
export const checkinOpen = (b: Booking): boolean => b.status === 'booked' && b.checkin >= 0 && b.checkin <= CHECKIN_OPENS_DAYS;
/** Free cancellation ends 48 hours before 3 PM on the check-in day: a refundable booking checking in tomorrow or today pays one night. */
export const lateCancel = (b: Booking): boolean => b.checkin < FREE_CANCEL_HOURS / 24;
/** What cancelling gives back: the full total, the total less one night, or nothing. */
export function refundCents(st: HotelState, b: Booking): number {
  if (!b.refundable) return 0;
  if (!lateCancel(b)) return b.cents;
  const r = roomOf(st, b.roomId);
  return Math.max(0, b.cents - (r ? Math.round(r.cents * (1 + TAX_RATE)) : 0));
}

/** Normalises a licence plate for comparison: upper case, no spaces or dashes. */
export const plateKey = (s: string): string => s.toUpperCase().replace(/[\s-]+/g, '');
/** Why a typed plate is not accepted ('' when it is, or when it is empty: the field is optional). */
export function plateError(s: string): string {
  const t = s.trim();
  if (!t) return '';
  if (!/^[A-Za-z0-9][A-Za-z0-9 -]{0,8}[A-Za-z0-9]$/.test(t) || plateKey(t).length < 2 || plateKey(t).length > 8) return 'Enter the plate as it appears on the car, like 8TRK512';
  return '';
}

/** Why the review form cannot be sent, by field (empty when it can). */
export function reviewErrors(d: { stars: number; title: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Number.isInteger(d.stars) || d.stars < 1 || d.stars > 5) errors.stars = 'Choose a star rating';
  const title = d.title.trim();
  if (!title) errors.title = 'Add a title';
  else if (title.length > TITLE_MAX) errors.title = `Use ${TITLE_MAX} characters or fewer`;
  return errors;
}
