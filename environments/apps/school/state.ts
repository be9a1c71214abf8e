import { dayCalendar, rng } from '../shared.js';

/** A child at the school, linked to this parent account. */
export interface Child {
  id: string;
  first: string;
  last: string;
  year: number;
  className: string;
  teacher: string;
  /** Universal infant free school meals (Reception to Year 2): lunches cost nothing. */
  freeMeals: boolean;
  /** Attendance this term, percent with one decimal. */
  attendance: number;
}

/** A reported absence. */
export interface Absence {
  id: number;
  childId: string;
  /** Day offset from today (0 = Monday, March 9; negative in the past). */
  day: number;
  session: string;
  reason: string;
  note: string;
  /** Reported before the session starts. */
  seeded: boolean;
  seq: number;
}

/** One child's school lunch for one day this week. */
export interface LunchOrder {
  childId: string;
  /** 0 = Monday … 4 = Friday. */
  day: number;
  choice: string;
  /** Times it was saved in this session. */
  saves: number;
  seq: number;
}

/** An after-school or lunchtime club this term. */
export interface Club {
  /** Slug, e.g. `junior-chess-club`. */
  id: string;
  name: string;
  weekday: string;
  time: string;
  room: string;
  leader: string;
  minYear: number;
  maxYear: number;
  /** Price for the term in pence (0 = free). */
  price: number;
  capacity: number;
  /** Places taken by other families. */
  taken: number;
  about: string;
  bring: string;
}

/** A child's place at a club. */
export interface Booking {
  id: number;
  clubId: string;
  childId: string;
  seeded: boolean;
  cancelled: boolean;
  seq: number;
}

/** A notification switch under Notifications. */
export interface NotifSetting {
  id: string;
  name: string;
  sub: string;
  section: string;
  on: boolean;
  /** Always on (the switch cannot be turned off). */
  locked: boolean;
}

export interface QuietHours {
  on: boolean;
  from: string;
  until: string;
  /** Times any of the three was changed in this session. */
  changes: number;
}

export interface NewsItem {
  id: string;
  title: string;
  /** Day offset it was posted. */
  day: number;
  body: readonly string[];
  read: boolean;
}

/** Bellwise's per-session state. Read by checkers in-process; the page never sees this object. */
export interface SchoolState {
  seed: number;
  children: Child[];
  absences: Absence[];
  lunches: LunchOrder[];
  clubs: Club[];
  bookings: Booking[];
  notifications: NotifSetting[];
  quiet: QuietHours;
  news: NewsItem[];
  /** Lunch and clubs balance in pence. */
  balance: number;
  seq: number;
}

export const PARENT = 'Chloe Okafor';
export const PARENT_EMAIL = 'chloe.okafor@example.com';
export const SCHOOL = 'Hollins Park Primary School';
export const OFFICE_PHONE = '020 7946 0321';
export const LUNCH_PRICE = 260;

/** Today is Monday, March 9, 2026 (spring term); offsets count days from it. */
const calendar = dayCalendar(2026, 2, 9);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;

/** School days an absence can be reported for: today to Friday next week. */
export const ABSENCE_DAYS: readonly number[] = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11];
export const dayByLabel = (label: string): number | undefined => {
  const want = label.trim().replace(/\s+/g, ' ').toLowerCase();
  return ABSENCE_DAYS.find((d) => dayLabel(d).toLowerCase() === want);
};
export const SESSIONS: readonly string[] = ['All day', 'Morning only', 'Afternoon only'];
export const REASONS: readonly string[] = ['Illness', 'Medical appointment', 'Dental appointment', 'Family emergency', 'Religious observance', 'Bereavement', 'Other'];
export const NOTE_MAX = 200;

export const WEEKDAYS: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
export const lunchDayByName = (name: string): number | undefined => {
  const i = WEEKDAYS.findIndex((d) => d.toLowerCase() === name.trim().toLowerCase());
  return i < 0 ? undefined : i;
};
/** Lunch orders close at 9:00 AM on the day; it is 9:41 on Monday, so only Monday is closed. */
export const lunchOpen = (day: number): boolean => day >= 1 && day <= 4;
export const PACKED = 'Packed lunch from home';

/** This week's menu: name, description, dietary tag. The first and the packed lunch are what orders start from. */
type MenuOption = readonly [string, string, string];
export const MENU: readonly (readonly MenuOption[])[] = [
  [
    ['Roast chicken dinner', 'Roast potatoes, carrots, peas and gravy', ''],
    ['Quorn roast dinner', 'Quorn fillet, roast potatoes, carrots, peas and gravy', 'Vegetarian'],
    ['Jacket potato with tuna', 'Tuna mayo, side salad', ''],
    [PACKED, 'No school lunch this day', ''],
  ],
  [
    ['Beef bolognese', 'Wholemeal spaghetti, garlic bread', ''],
    ['Lentil bolognese', 'Wholemeal spaghetti, garlic bread', 'Vegan'],
    ['Jacket potato with cheese', 'Grated cheddar, coleslaw', 'Vegetarian'],
    [PACKED, 'No school lunch this day', ''],
  ],
  [
    ['Chicken curry with rice', 'Mild korma, rice, naan', ''],
    ['Chickpea curry with rice', 'Mild chickpea and spinach curry, rice, naan', 'Vegan'],
    ['Jacket potato with beans', 'Baked beans, grated cheddar', 'Vegetarian'],
    [PACKED, 'No school lunch this day', ''],
  ],
  [
    ['Sausage and mash', 'Pork sausages, mash, green beans, gravy', ''],
    ['Veggie sausage and mash', 'Vegetarian sausages, mash, green beans, gravy', 'Vegetarian'],
    ['Tomato pasta bake', 'Penne, tomato sauce, mozzarella, sweetcorn', 'Vegetarian'],
    [PACKED, 'No school lunch this day', ''],
  ],
  [
    ['Fish fingers and chips', 'Peas or beans, ketchup', ''],
    ['Veggie fingers and chips', 'Peas or beans, ketchup', 'Vegetarian'],
    ['Cheese and tomato pizza', 'Potato wedges, salad', 'Vegetarian'],
    [PACKED, 'No school lunch this day', ''],
  ],
];
export const menuOf = (day: number): readonly string[] => (MENU[day] ?? []).map(([n]) => n);

/** Id, first, last, year, class, teacher, free meals. */
const CHILDREN: readonly (readonly [string, string, string, number, string, string, boolean])[] = [
  ['maya', 'Maya', 'Okafor', 5, '5B', 'Mr Hughes', false],
  ['leo', 'Leo', 'Okafor', 2, '2A', 'Ms Patel', true],
];
export const CHILD_NAMES: readonly string[] = CHILDREN.map(([, first]) => first);

/** Id, name, weekday, time, room, leader, years, price (pence), capacity, about, what to bring. Near-duplicates on purpose. */
type SeedClub = readonly [string, string, string, string, string, string, number, number, number, number, string, string];
const CLUBS: readonly SeedClub[] = [
  ['art-club', 'Art Club', 'Monday', '3:20–4:20 PM', 'Art room', 'Ms Ferreira', 1, 6, 2000, 16, 'Painting, printing and clay, with a different artist to look at every few weeks. Work goes home at the end of term.', 'An old shirt or apron.'],
  ['coding-club', 'Coding Club', 'Monday', '3:20–4:30 PM', 'ICT suite', 'Mr Reid', 4, 6, 3000, 14, 'Scratch and micro:bit projects, building up to a small game by the end of term.', 'Nothing; laptops are provided.'],
  ['junior-coding', 'Junior Coding', 'Wednesday', '3:20–4:15 PM', 'ICT suite', 'Mr Reid', 1, 3, 3000, 12, 'Floor robots and ScratchJr: first steps in giving instructions and fixing bugs.', 'Nothing; tablets are provided.'],
  ['chess-club', 'Chess Club', 'Thursday', '3:20–4:20 PM', 'Library', 'Mr Hughes', 4, 6, 1800, 16, 'Openings, tactics and friendly matches, with a school tournament in the last week of term.', 'Nothing; boards are provided.'],
  ['junior-chess-club', 'Junior Chess Club', 'Tuesday', '3:20–4:15 PM', 'Room 2A', 'Ms Patel', 1, 3, 1800, 14, 'How the pieces move, simple checkmates and lots of games against friends.', 'Nothing; boards are provided.'],
  ['multi-sports', 'Multi-sports', 'Wednesday', '3:20–4:30 PM', 'Sports hall', 'Coach Dan (Premier Sports)', 1, 6, 2400, 30, 'Dodgeball, tag rugby, hockey and relay games in mixed-age teams.', 'PE kit, trainers and a water bottle.'],
  ['football', 'Football', 'Friday', '3:20–4:30 PM', 'Field', 'Coach Dan (Premier Sports)', 3, 6, 2400, 24, 'Skills and small-sided matches. Moves into the hall if the field is waterlogged.', 'Football boots or trainers, shin pads, a water bottle.'],
  ['choir', 'Choir', 'Tuesday', '12:30–1:00 PM', 'Music room', 'Mrs Lowe', 3, 6, 0, 40, 'Rehearsals for the spring concert on March 26 and singing in assembly.', 'Nothing.'],
  ['junior-choir', 'Junior Choir', 'Thursday', '12:30–1:00 PM', 'Music room', 'Mrs Lowe', 1, 2, 0, 30, 'Songs with actions for the infant spring concert.', 'Nothing.'],
  ['drama-club', 'Drama Club', 'Thursday', '3:20–4:30 PM', 'Hall', 'Miss Carter', 3, 6, 2200, 20, 'Games, improvisation and a short play shown to parents on the last Thursday of term.', 'Comfortable clothes.'],
  ['gardening-club', 'Gardening Club', 'Friday', '12:30–1:00 PM', 'Wildlife garden', 'Mr Osei', 2, 6, 0, 15, 'Planting, weeding and looking after the pond and the bug hotel.', 'Wellies if you have them.'],
];
export const CLUB_NAMES: readonly string[] = CLUBS.map(([, n]) => n);

/** Club id, child id: the places booked when the session starts. */
const BOOKINGS: readonly (readonly [string, string])[] = [
  ['coding-club', 'maya'],
  ['multi-sports', 'maya'],
  ['chess-club', 'maya'],
  ['choir', 'maya'],
  ['art-club', 'leo'],
  ['junior-chess-club', 'leo'],
  ['multi-sports', 'leo'],
  ['junior-choir', 'leo'],
];
export const SEEDED_BOOKINGS = BOOKINGS;

/** Id, name, description, section, on, locked. */
const NOTIFICATIONS: readonly (readonly [string, string, string, string, boolean, boolean])[] = [
  ['attendance', 'Attendance alerts', 'If your child is marked absent and no reason was given', 'Notify me about', true, true],
  ['messages', 'Messages from teachers', 'When a teacher or the office writes to you', 'Notify me about', true, false],
  ['homework', 'Homework set', 'When new homework is set for Maya or Leo', 'Notify me about', true, false],
  ['homework_due', 'Homework due tomorrow', 'A reminder at 6:00 PM the day before', 'Notify me about', false, false],
  ['lunch', 'Lunch order reminders', "On Thursdays, if next week's lunches are not ordered", 'Notify me about', true, false],
  ['clubs', 'Club updates', 'Club changes, cancellations and new clubs', 'Notify me about', true, false],
  ['trips', 'Trips and events', 'New trips, consent forms and school events', 'Notify me about', true, false],
  ['payments', 'Payment reminders', 'Low balance and payments due', 'Notify me about', true, false],
  ['newsletters', 'Newsletters', "The head teacher's Friday newsletter", 'Notify me about', false, false],
  ['email_copies', 'Email me a copy of messages', PARENT_EMAIL, 'Email', false, false],
  ['digest', 'Weekly summary email', 'Sunday evening: the week ahead for both children', 'Email', true, false],
];
export const NOTIFICATION_NAMES: readonly string[] = NOTIFICATIONS.map(([, n]) => n);

/** Quiet hours times: every half hour of the day, from 12:00 AM. */
export const TIMES: readonly string[] = Array.from({ length: 48 }, (_, i) => {
  const h = Math.floor(i / 2);
  return `${h % 12 === 0 ? 12 : h % 12}:${i % 2 ? '30' : '00'} ${h < 12 ? 'AM' : 'PM'}`;
});
export const QUIET_START: Readonly<QuietHours> = { on: false, from: '9:00 PM', until: '7:00 AM', changes: 0 };

/** Id, title, day posted, paragraphs. */
const NEWS: readonly (readonly [string, string, number, readonly string[]])[] = [
  ['parents-evening', "Parents' evening: book your slot", -3, ["Parents' evening is on Thursday, March 12, from 3:30 to 7:00 PM.", 'Ten-minute slots with each class teacher can be booked with the school office. Younger brothers and sisters are welcome in the hall, where the PTA will be selling drinks.']],
  ['book-day', 'World Book Day photos', -4, ['Thank you for the amazing costumes on Thursday! Photos from every class are on the school website.', 'Book tokens were handed out in class; please use them by the end of March.']],
  ['science-museum', 'Year 5 Science Museum trip', -5, ['Year 5 will visit the Science Museum on Wednesday, March 18. The coach leaves at 8:45 AM sharp.', 'Please send your child with a packed lunch in a disposable bag and a waterproof coat.']],
  ['concert', 'Spring concert tickets', -7, ['The spring concert is on Thursday, March 26 at 2:00 PM in the school hall.', 'Each family may have two tickets. Ask at the office from Monday.']],
  ['menu', 'New lunch menu after half term', -14, ['Our caterers have a new three-week menu with more vegetarian and vegan choices.', 'Lunches cost £2.60 a day for Years 3 to 6; Reception to Year 2 eat for free.']],
];

export const childOf = (s: SchoolState, id: string): Child | undefined => s.children.find((c) => c.id === id);
export const childByName = (s: SchoolState, name: string): Child | undefined => {
  const n = name.trim().replace(/\s+/g, ' ').toLowerCase();
  return s.children.find((c) => c.first.toLowerCase() === n || `${c.first} ${c.last}`.toLowerCase() === n);
};
export const fullName = (c: Child): string => `${c.first} ${c.last}`;
export const clubOf = (s: SchoolState, id: string): Club | undefined => s.clubs.find((c) => c.id === id);
export const clubByName = (s: SchoolState, name: string): Club | undefined => s.clubs.find((c) => c.name.toLowerCase() === name.trim().toLowerCase());
export const liveBookings = (s: SchoolState): Booking[] => s.bookings.filter((b) => !b.cancelled);
export const bookingOf = (s: SchoolState, clubId: string, childId: string): Booking | undefined => s.bookings.find((b) => !b.cancelled && b.clubId === clubId && b.childId === childId);
export const orderOf = (s: SchoolState, childId: string, day: number): LunchOrder | undefined => s.lunches.find((o) => o.childId === childId && o.day === day);
export const notifOf = (s: SchoolState, id: string): NotifSetting | undefined => s.notifications.find((n) => n.id === id);
export const newsOf = (s: SchoolState, id: string): NewsItem | undefined => s.news.find((n) => n.id === id);
export const eligible = (c: Child, club: Club): boolean => c.year >= club.minYear && c.year <= club.maxYear;
export const yearsText = (club: Club): string => (club.minYear === club.maxYear ? `Year ${club.minYear}` : `Years ${club.minYear}–${club.maxYear}`);
export const money = (pence: number): string => `£${(pence / 100).toFixed(2)}`;
export const priceText = (club: Club): string => (club.price ? `${money(club.price)} per term` : 'Free');
export const placesLeft = (s: SchoolState, club: Club): number => club.capacity - club.taken - liveBookings(s).filter((b) => b.clubId === club.id).length;
export const lunchPrice = (c: Child, choice: string): number => (c.freeMeals || choice === PACKED ? 0 : LUNCH_PRICE);
export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');

export function initialSchoolState(seed: number): SchoolState {
  const rand = rng(seed ^ 0xbe11);
  const children: Child[] = CHILDREN.map(([id, first, last, year, className, teacher, freeMeals]) => ({
    id,
    first,
    last,
    year,
    className,
    teacher,
    freeMeals,
    attendance: Math.round((93 + rand() * 6.5) * 10) / 10,
  }));
  const absences: Absence[] = [
    { id: 1, childId: 'leo', day: -41, session: 'All day', reason: 'Illness', note: 'Temperature overnight', seeded: true, seq: 0 },
    { id: 2, childId: 'maya', day: -13, session: 'All day', reason: 'Illness', note: '', seeded: true, seq: 0 },
    { id: 3, childId: 'maya', day: -4, session: 'Morning only', reason: 'Dental appointment', note: 'Back by 11:30', seeded: true, seq: 0 },
    { id: 4, childId: 'leo', day: 11, session: 'Afternoon only', reason: 'Medical appointment', note: 'Hospital check-up at 1:30', seeded: true, seq: 0 },
  ];
  // Orders start as the first main or a packed lunch, by seed (so no task's new choice is ever the one it starts with).
  const lunches: LunchOrder[] = [];
  for (const c of children)
    for (let day = 0; day < 5; day++) lunches.push({ childId: c.id, day, choice: rand() < 0.7 ? (MENU[day]?.[0]?.[0] ?? PACKED) : PACKED, saves: 0, seq: 0 });
  const clubs: Club[] = CLUBS.map(([id, name, weekday, time, room, leader, minYear, maxYear, price, capacity, about, bring]) => ({
    id,
    name,
    weekday,
    time,
    room,
    leader,
    minYear,
    maxYear,
    price,
    capacity,
    taken: Math.max(0, capacity - 2 - Math.floor(rand() * 6)),
    about,
    bring,
  }));
  const bookings: Booking[] = BOOKINGS.map(([clubId, childId], i) => ({ id: 51 + i, clubId, childId, seeded: true, cancelled: false, seq: 0 }));
  const notifications: NotifSetting[] = NOTIFICATIONS.map(([id, name, sub, section, on, locked]) => ({ id, name, sub, section, on, locked }));
  const news: NewsItem[] = NEWS.map(([id, title, day, body], i) => ({ id, title, day, body, read: i > 0 && rand() < 0.6 }));
  return { seed, children, absences, lunches, clubs, bookings, notifications, quiet: { ...QUIET_START }, news, balance: 1000 + Math.floor(rand() * 20) * 50, seq: 0 };
}

/** Why an absence cannot be reported, by field (empty when it can). */
export function absenceErrors(s: SchoolState, d: { child: string; day: number; session: string; reason: string; note: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const c = childOf(s, d.child);
  if (!c) errors.child = 'Choose who is absent';
  if (!ABSENCE_DAYS.includes(d.day)) errors.day = 'Choose a school day';
  else if (c && s.absences.some((a) => a.childId === c.id && a.day === d.day)) errors.day = `${c.first} already has an absence reported for this day`;
  if (!SESSIONS.includes(d.session)) errors.session = 'Choose how long';
  if (!REASONS.includes(d.reason)) errors.reason = 'Choose a reason';
  const note = cleanText(d.note);
  if (d.reason === 'Other' && !note) errors.note = 'Tell the office a little about the reason';
  else if (note.length > NOTE_MAX) errors.note = `Use ${NOTE_MAX} characters or fewer`;
  return errors;
}
