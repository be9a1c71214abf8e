import { dayCalendar, rng, shuffle } from '../shared.js';

/** A job posting in the Jobs list. */
export interface Job {
  id: number;
  /** "Barista", "Sales Associate"; the same title at near-duplicate companies. */
  title: string;
  company: string;
  city: string;
  area: string;
  type: string;
  /** As shown ("$17–$19 an hour + tips"). */
  pay: string;
  /** Days since it was posted. */
  posted: number;
  /** How many people applied (moves between seeds). */
  applicants: number;
  about: string;
  duties: readonly string[];
  needs: readonly string[];
  perks: readonly string[];
  /** No longer accepting applications. */
  closed: boolean;
  saved: boolean;
}

/** A résumé on the profile. */
export interface Resume {
  id: number;
  name: string;
  /** "Updated May 28". */
  updated: string;
  pages: number;
}

/** Times an employer offered for one interview day (offset from today), with the ones already taken. */
export interface InviteDay {
  day: number;
  times: readonly string[];
  taken: readonly string[];
}

/** An employer's interview request. */
export interface Invite {
  format: string;
  where: string;
  minutes: number;
  message: string;
  days: readonly InviteDay[];
}

/** A booked interview. */
export interface Interview {
  day: number;
  time: string;
  seq: number;
}

export type Stage = 'applied' | 'viewed' | 'not_selected';

/** An application on the account (seeded ones exist when the session starts). */
export interface Application {
  id: number;
  jobId: number;
  resumeId: number;
  /** "Right away", "In 1 week", … */
  start: string;
  shifts: readonly string[];
  phone: string;
  note: string;
  /** Day offset it was sent (negative: before today). */
  appliedDay: number;
  stage: Stage;
  withdrawn: boolean;
  withdrawReason: string;
  invite: Invite | null;
  interview: Interview | null;
  seeded: boolean;
  /** Order it was sent, withdrawn or its interview booked in this session (0 for an untouched seeded one). */
  seq: number;
}

/** A job alert. */
export interface Alert {
  id: number;
  keywords: string;
  city: string;
  jobType: string;
  frequency: string;
  on: boolean;
  seeded: boolean;
  seq: number;
}

/** What an application holds between its two pages (server-side, like a real app's draft). */
export interface ApplyDraft {
  jobId: number;
  resumeId: number;
  start: string;
  shifts: string[];
  phone: string;
  note: string;
}

/** Hirewell's per-session state. Read by checkers in-process; the page never sees this object. */
export interface JobsState {
  seed: number;
  jobs: Job[];
  /** Jobs order ("Best match"), different for every seed. */
  order: number[];
  resumes: Resume[];
  defaultResumeId: number;
  applications: Application[];
  alerts: Alert[];
  draft: ApplyDraft;
  openToWork: boolean;
  notify: { interviews: boolean; tips: boolean; messages: boolean };
  profileViews: number;
  seq: number;
}

export const USER = 'Priya Raman';
export const USER_EMAIL = 'priya.raman@example.com';
export const USER_PHONE = '(303) 555-0147';
export const USER_HEADLINE = 'Retail and hospitality · Denver, CO';
export const NOTE_MAX = 500;
export const KEYWORDS_MAX = 40;

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
/** "May 27" for an offset. */
export const monthDay = (offset: number): string => `${monthShort(offset)} ${dayOfMonth(offset)}`;

export const CITIES: readonly string[] = ['Denver', 'Boulder', 'Aurora', 'Remote'];
export const ALERT_PLACES: readonly string[] = ['Anywhere', ...CITIES];
export const START_OPTIONS: readonly string[] = ['Right away', 'In 1 week', 'In 2 weeks', 'In a month'];
export const SHIFT_OPTIONS: readonly string[] = ['Mornings', 'Afternoons', 'Evenings', 'Weekends'];
export const FREQUENCIES: readonly (readonly [string, string])[] = [
  ['Instantly', 'As soon as a matching job is posted'],
  ['Daily', 'One email each morning'],
  ['Weekly', 'A summary every Monday'],
];
export const FREQUENCY_NAMES: readonly string[] = FREQUENCIES.map(([f]) => f);
export const ALERT_JOB_TYPES: readonly string[] = ['Any', 'Full-time', 'Part-time'];
export const WITHDRAW_REASONS: readonly string[] = ['I accepted another offer', 'The pay is too low', "The schedule doesn't fit", 'I applied by mistake', 'Other'];

type JobRow = readonly [
  title: string,
  company: string,
  city: string,
  area: string,
  type: string,
  pay: string,
  posted: number,
  applicants: number,
  about: string,
  duties: readonly string[],
  needs: readonly string[],
  perks: readonly string[],
  closed: boolean,
  saved: boolean,
];

const JOBS: readonly JobRow[] = [
  [
    'Barista',
    'Copper Kettle Coffee',
    'Denver',
    'LoHi',
    'Part-time',
    '$17–$19 an hour + tips',
    2,
    23,
    'Copper Kettle is a neighborhood roaster with three cafés in Denver. We are looking for a friendly barista for our LoHi café, 20–28 hours a week.',
    ['Make espresso drinks, pour-overs and teas to our recipes', 'Take orders and run the register', 'Keep the bar and the café clean and stocked'],
    ['Some café or customer service experience', 'Available at least two weekend shifts a month', 'Able to lift 30 lb'],
    ['Free drinks on shift and a pound of coffee a week', 'Paid time off', 'Tips shared every week'],
    false,
    false,
  ],
  [
    'Barista',
    'Kettle & Crumb Bakery',
    'Boulder',
    'Pearl Street',
    'Part-time',
    '$16.50–$18 an hour + tips',
    5,
    41,
    'Kettle & Crumb is a family bakery and coffee bar on Pearl Street. Early shifts start at 6 AM.',
    ['Prepare coffee drinks and serve pastries', 'Open the café on early shifts', 'Help the bakers with packaging'],
    ['Comfortable with early mornings', 'Cash handling experience'],
    ['Free pastry every shift', 'Flexible schedule'],
    false,
    true,
  ],
  [
    'Shift Supervisor',
    'Copper Kettle Coffee',
    'Denver',
    'Capitol Hill',
    'Full-time',
    '$20–$22 an hour + tips',
    1,
    9,
    'Lead the floor at our busiest café: run shifts, coach baristas and keep the line moving.',
    ['Run opening or closing shifts', 'Coach new baristas', 'Count the drawer and place orders'],
    ['A year of café or retail experience', 'Food handler card (or get one in 30 days)'],
    ['Health, dental and vision', 'Paid time off', '401(k) with a match'],
    false,
    false,
  ],
  [
    'Sales Associate',
    'Pinecrest Outfitters',
    'Denver',
    'Cherry Creek',
    'Part-time',
    '$17 an hour',
    3,
    57,
    'Pinecrest Outfitters sells camping, climbing and ski gear. Help customers find the right gear for their trip.',
    ['Help customers on the floor and in the fitting rooms', 'Run the register and process returns', 'Restock and merchandise displays'],
    ['Interest in the outdoors', 'Retail experience a plus', 'Weekend availability'],
    ['40% staff discount', 'Gear trial program'],
    false,
    false,
  ],
  [
    'Stock Associate',
    'Pinecrest Outfitters',
    'Denver',
    'Cherry Creek',
    'Part-time',
    '$17.50 an hour',
    8,
    33,
    'Receive and put away deliveries before the store opens.',
    ['Unload trucks and check deliveries', 'Price and tag new gear', 'Keep the stock room organized'],
    ['Able to lift 50 lb', 'Available 5 AM – 10 AM'],
    ['40% staff discount'],
    false,
    false,
  ],
  [
    'Sales Associate',
    'Pine Ridge Outfitters',
    'Boulder',
    'Twenty Ninth Street',
    'Full-time',
    '$18 an hour',
    4,
    28,
    'Pine Ridge Outfitters is a Boulder running and hiking shop. Full-time role with weekday and weekend shifts.',
    ['Fit customers for running shoes', 'Help with repairs intake', 'Run the register'],
    ['Customer service experience', 'Available weekends'],
    ['Health insurance', 'Staff discount', 'Paid race entries'],
    false,
    true,
  ],
  [
    'Front Desk Receptionist',
    'Brightsmile Dental',
    'Aurora',
    'Southlands',
    'Full-time',
    '$19–$21 an hour',
    12,
    64,
    'A busy family dental practice looking for a warm, organized receptionist.',
    ['Greet patients and check them in', 'Schedule appointments and answer the phones', 'Collect co-pays'],
    ['Office or reception experience', 'Comfortable with scheduling software'],
    ['Free dental care', 'Health insurance', 'Paid holidays'],
    false,
    false,
  ],
  [
    'Front Desk Agent',
    'Summit Peak Hotel',
    'Denver',
    'Union Station',
    'Full-time',
    '$19 an hour',
    6,
    38,
    'Welcome guests at a 200-room downtown hotel. Rotating morning, evening and weekend shifts.',
    ['Check guests in and out', 'Answer questions about the city', 'Handle reservations and requests'],
    ['Customer service experience', 'A positive attitude under pressure'],
    ['Discounted hotel stays', 'Free parking', 'Health insurance'],
    false,
    false,
  ],
  [
    'Warehouse Associate',
    'Parcelwise Logistics',
    'Aurora',
    'Airport Business Park',
    'Full-time',
    '$21 an hour',
    2,
    112,
    'Pick, pack and ship orders at our Aurora fulfillment center. Day shift, 6 AM – 2:30 PM.',
    ['Pick and pack orders with a handheld scanner', 'Load outbound trucks', 'Keep aisles safe and clear'],
    ['Able to lift 50 lb', 'Able to stand for a full shift'],
    ['Weekly pay', 'Health insurance from day one', 'Overtime available'],
    false,
    false,
  ],
  [
    'Night Shift Warehouse Associate',
    'Parcelwise Logistics',
    'Aurora',
    'Airport Business Park',
    'Full-time',
    '$23 an hour',
    14,
    86,
    'The same work as our day shift, 10 PM – 6:30 AM, with a night differential.',
    ['Pick and pack orders', 'Unload inbound trucks'],
    ['Able to lift 50 lb', 'Available overnight'],
    ['Weekly pay', 'Night differential'],
    false,
    false,
  ],
  [
    'Line Cook',
    'Juniper Table',
    'Denver',
    'RiNo',
    'Full-time',
    '$20–$23 an hour + tips',
    7,
    19,
    'Juniper Table is a seasonal American restaurant in RiNo. Join our line for dinner service.',
    ['Prep and cook on the grill and sauté stations', 'Keep your station clean and organized', 'Follow recipes and plating guides'],
    ['A year of line experience', 'Food handler card'],
    ['Family meal every shift', 'Tip share', 'Health insurance'],
    false,
    false,
  ],
  [
    'Host',
    'Juniper Table',
    'Denver',
    'RiNo',
    'Part-time',
    '$15 an hour + tips',
    7,
    27,
    'Greet guests, manage the waitlist and keep the dining room flowing.',
    ['Greet and seat guests', 'Answer the phone and take reservations'],
    ['Friendly and organized', 'Evening and weekend availability'],
    ['Family meal every shift', 'Tip share'],
    false,
    false,
  ],
  [
    'Prep Cook',
    'Juniper Table',
    'Denver',
    'RiNo',
    'Part-time',
    '$18 an hour',
    3,
    11,
    'Morning prep for our dinner service: sauces, stocks, butchery and pastry support.',
    ['Prep vegetables, sauces and proteins', 'Label and date everything', 'Receive deliveries'],
    ['Knife skills', 'Food handler card'],
    ['Family meal every shift', 'Free staff parking'],
    false,
    false,
  ],
  [
    'Cashier',
    'GreenCart Grocery',
    'Boulder',
    'North Boulder',
    'Part-time',
    '$17 an hour',
    16,
    74,
    'Check out customers at our North Boulder store.',
    ['Scan and bag groceries', 'Handle cash and cards', 'Help customers find items'],
    ['Friendly and patient', 'Weekend availability'],
    ['10% staff discount', 'Flexible schedule'],
    false,
    false,
  ],
  [
    'Delivery Driver',
    'GreenCart Grocery',
    'Boulder',
    'North Boulder',
    'Part-time',
    '$19 an hour + mileage',
    1,
    15,
    'Deliver grocery orders around Boulder in a GreenCart van.',
    ['Load orders and follow the delivery route', 'Bring orders to customers’ doors', 'Keep the van clean'],
    ['A valid driver’s license and a clean record', 'Able to lift 40 lb'],
    ['Mileage paid', '10% staff discount'],
    false,
    false,
  ],
  [
    'Customer Support Associate',
    'Brightline Telecom',
    'Remote',
    'Work from home in Colorado',
    'Full-time',
    '$42,000–$46,000 a year',
    18,
    203,
    'Help Brightline customers by phone and chat with billing and service questions.',
    ['Answer calls and chats', 'Solve billing questions', 'Log every contact'],
    ['Quiet place to work from home', 'Typing 40 words a minute'],
    ['Health, dental and vision', 'Home office stipend'],
    false,
    false,
  ],
  [
    'Office Assistant',
    'Ledgerline Accounting',
    'Denver',
    'Downtown',
    'Part-time',
    '$20 an hour',
    24,
    148,
    'Help a small accounting firm through the busy season: filing, scanning and answering phones.',
    ['Scan and file client documents', 'Answer phones', 'Order supplies'],
    ['Organized and detail-oriented', 'Comfortable with spreadsheets'],
    ['Flexible hours'],
    true,
    true,
  ],
  [
    'Bookseller',
    'Chapter & Verse Books',
    'Boulder',
    'Pearl Street',
    'Part-time',
    '$16.75 an hour',
    35,
    52,
    'An independent bookstore looking for a book lover to help customers and run events.',
    ['Recommend books', 'Run the register', 'Help set up author events'],
    ['A love of reading'],
    ['30% off books'],
    true,
    false,
  ],
  [
    'Dog Walker',
    'Wagtail Walks',
    'Denver',
    'Wash Park',
    'Part-time',
    '$18 an hour',
    40,
    31,
    'Walk dogs around Wash Park on weekday middays.',
    ['Walk 4–6 dogs a day', 'Send owners a photo after each walk'],
    ['Loves dogs', 'Reliable'],
    ['Flexible schedule'],
    true,
    false,
  ],
];

/** Name, updated, pages. The first one is the profile's default. */
const RESUMES: readonly (readonly [string, string, number])[] = [
  ['Retail resume (old)', 'Updated Jan 14, 2024', 1],
  ['Retail resume', 'Updated May 28', 1],
  ['Coffee shop resume', 'Updated May 12', 1],
  ['Office resume', 'Updated Mar 3', 2],
];
export const RESUME_NAMES: readonly string[] = RESUMES.map(([n]) => n);

const BRIGHTSMILE_INVITE: Invite = {
  format: 'In person',
  where: '2290 S Havana St, Aurora',
  minutes: 30,
  message: 'Hi Priya, thanks for applying! Dr. Alvarez would like to meet you. Please pick a time that works for you.',
  days: [
    { day: 2, times: ['9:00 AM', '9:30 AM', '10:00 AM', '11:30 AM', '1:30 PM', '3:00 PM'], taken: ['9:30 AM', '1:30 PM'] },
    { day: 3, times: ['9:00 AM', '10:30 AM', '11:00 AM', '2:00 PM', '4:00 PM'], taken: ['11:00 AM'] },
    { day: 4, times: ['8:30 AM', '10:00 AM', '12:30 PM', '3:30 PM'], taken: ['8:30 AM', '12:30 PM'] },
  ],
};
const JUNIPER_INVITE: Invite = {
  format: 'Working interview',
  where: 'Juniper Table kitchen, 3320 Walnut St, Denver',
  minutes: 45,
  message: 'Chef Dana would like you to come in for a short working interview. Wear non-slip shoes; we provide the apron.',
  days: [
    { day: 1, times: ['2:00 PM', '2:45 PM', '3:30 PM'], taken: ['2:45 PM'] },
    { day: 7, times: ['10:00 AM', '10:45 AM', '2:00 PM', '2:45 PM'], taken: [] },
    { day: 8, times: ['10:00 AM', '2:00 PM', '3:30 PM'], taken: ['10:00 AM'] },
  ],
};
const GREENCART_INVITE: Invite = {
  format: 'Phone call',
  where: 'The store manager will call (303) 555-0147',
  minutes: 15,
  message: 'Thanks for applying to GreenCart! Pick a time for a quick phone screen with our store manager.',
  days: [
    { day: 3, times: ['11:00 AM', '1:00 PM'], taken: [] },
    { day: 4, times: ['9:00 AM', '11:00 AM'], taken: ['9:00 AM'] },
  ],
};

/** Job title, company, applied offset, stage, résumé, start, invite, booked interview [day, time], withdrawn reason. */
type AppRow = readonly [string, string, number, Stage, string, string, Invite | null, readonly [number, string] | null, string];
const APPLICATIONS: readonly AppRow[] = [
  ['Front Desk Receptionist', 'Brightsmile Dental', -9, 'viewed', 'Office resume', 'In 2 weeks', BRIGHTSMILE_INVITE, null, ''],
  ['Line Cook', 'Juniper Table', -6, 'viewed', 'Coffee shop resume', 'Right away', JUNIPER_INVITE, null, ''],
  ['Host', 'Juniper Table', -6, 'applied', 'Coffee shop resume', 'Right away', null, null, ''],
  ['Stock Associate', 'Pinecrest Outfitters', -4, 'applied', 'Retail resume', 'In 1 week', null, null, ''],
  ['Night Shift Warehouse Associate', 'Parcelwise Logistics', -12, 'viewed', 'Retail resume (old)', 'Right away', null, null, ''],
  ['Customer Support Associate', 'Brightline Telecom', -15, 'viewed', 'Office resume', 'In a month', null, null, ''],
  ['Cashier', 'GreenCart Grocery', -10, 'viewed', 'Retail resume', 'Right away', GREENCART_INVITE, [3, '11:00 AM'], ''],
  ['Bookseller', 'Chapter & Verse Books', -30, 'not_selected', 'Retail resume (old)', 'In 2 weeks', null, null, ''],
  ['Dog Walker', 'Wagtail Walks', -38, 'viewed', 'Retail resume (old)', 'Right away', null, null, 'I accepted another offer'],
];
export const SEEDED_APPLICATIONS = APPLICATIONS;

/** Keywords, place, job type, frequency, on. */
const ALERTS: readonly (readonly [string, string, string, string, boolean])[] = [
  ['Barista', 'Denver', 'Any', 'Daily', true],
  ['Receptionist', 'Anywhere', 'Full-time', 'Weekly', true],
  ['Warehouse', 'Aurora', 'Any', 'Instantly', false],
];
export const SEEDED_ALERTS = ALERTS;

export function initialJobsState(seed: number): JobsState {
  const rand = rng(seed ^ 0x70b5e1);
  const jobs: Job[] = JOBS.map(([title, company, city, area, type, pay, posted, applicants, about, duties, needs, perks, closed, saved], i) => ({
    id: 201 + i,
    title,
    company,
    city,
    area,
    type,
    pay,
    posted,
    applicants: applicants + Math.floor(rand() * 15),
    about,
    duties,
    needs,
    perks,
    closed,
    saved,
  }));
  const resumes: Resume[] = RESUMES.map(([name, updated, pages], i) => ({ id: 51 + i, name, updated, pages }));
  const jobOf = (title: string, company: string): Job => jobs.find((j) => j.title === title && j.company === company) as Job;
  const resumeOf = (name: string): Resume => resumes.find((r) => r.name === name) as Resume;
  const applications: Application[] = APPLICATIONS.map(([title, company, applied, stage, resume, start, invite, interview, reason], i) => ({
    id: 301 + i,
    jobId: jobOf(title, company).id,
    resumeId: resumeOf(resume).id,
    start,
    shifts: [],
    phone: USER_PHONE,
    note: '',
    appliedDay: applied,
    stage,
    withdrawn: reason !== '',
    withdrawReason: reason,
    invite,
    interview: interview ? { day: interview[0], time: interview[1], seq: 0 } : null,
    seeded: true,
    seq: 0,
  }));
  const alerts: Alert[] = ALERTS.map(([keywords, city, jobType, frequency, on], i) => ({ id: 401 + i, keywords, city, jobType, frequency, on, seeded: true, seq: 0 }));
  return {
    seed,
    jobs,
    order: shuffle(
      jobs.map((j) => j.id),
      rand,
    ),
    resumes,
    defaultResumeId: resumes[0]!.id,
    applications,
    alerts,
    draft: emptyDraft(resumes[0]!.id),
    openToWork: true,
    notify: { interviews: true, tips: false, messages: true },
    profileViews: 8 + Math.floor(rand() * 30),
    seq: 0,
  };
}

export const emptyDraft = (resumeId: number): ApplyDraft => ({ jobId: 0, resumeId, start: '', shifts: [], phone: USER_PHONE, note: '' });

export const jobOf = (st: JobsState, id: number): Job | undefined => st.jobs.find((j) => j.id === id);
export const resumeOf = (st: JobsState, id: number): Resume | undefined => st.resumes.find((r) => r.id === id);
export const applicationFor = (st: JobsState, jobId: number): Application | undefined => st.applications.find((a) => a.jobId === jobId && !a.withdrawn);
/** A job can be applied to when it is open and there is no application for it (a withdrawn one does not count). */
export const canApply = (st: JobsState, j: Job): boolean => !j.closed && !applicationFor(st, j.id);
/** Active: not withdrawn and not turned down. */
export const isActive = (a: Application): boolean => !a.withdrawn && a.stage !== 'not_selected';
/** An interview request with no time booked yet. */
export const needsTime = (a: Application): boolean => isActive(a) && !!a.invite && !a.interview;
export const freeTimes = (d: InviteDay): string[] => d.times.filter((t) => !d.taken.includes(t));

export function statusText(a: Application): string {
  if (a.withdrawn) return 'Withdrawn';
  if (a.stage === 'not_selected') return 'Not selected';
  if (a.interview) return 'Interview scheduled';
  if (a.invite) return 'Interview requested';
  return a.stage === 'viewed' ? 'Viewed by employer' : 'Application sent';
}

/** Why the application form cannot go on, by field (empty when it can). */
export function applyErrors(st: JobsState, d: { resumeId: number; start: string; phone: string; note: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!resumeOf(st, d.resumeId)) errors.resume = 'Choose a resume';
  if (!START_OPTIONS.includes(d.start)) errors.start = 'Choose when you can start';
  if (d.phone.replace(/\D/g, '').length < 10) errors.phone = 'Enter a phone number, like (303) 555-0147';
  if (d.note.length > NOTE_MAX) errors.note = `Keep your note to ${NOTE_MAX} characters`;
  return errors;
}

/** Normalised alert keywords: trimmed, single spaces, lower case. */
export const keywordKey = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Why the alert form cannot be saved, by field (empty when it can). */
export function alertErrors(st: JobsState, d: { keywords: string; city: string; frequency: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const k = d.keywords.trim();
  if (!k) errors.keywords = 'Enter a job title or keyword';
  else if (k.length > KEYWORDS_MAX) errors.keywords = `Use ${KEYWORDS_MAX} characters or fewer`;
  else if (st.alerts.some((a) => keywordKey(a.keywords) === keywordKey(k) && a.city === d.city)) errors.keywords = `You already have an alert for "${k}" in ${d.city}`;
  if (!ALERT_PLACES.includes(d.city)) errors.city = 'Choose a location';
  if (!FREQUENCY_NAMES.includes(d.frequency)) errors.frequency = 'Choose how often';
  return errors;
}
