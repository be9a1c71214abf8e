import { rng } from '../shared.js';

export interface SeedMessage {
  from: string;
  email: string;
  subject: string;
  body: string;
}

export const SECURITY_SENDER = 'Security Team';
export const SECURITY_EMAIL = 'security@accounts.example.com';
export const SECURITY_SUBJECT = 'Your verification code';

/** The 6-digit code in the Security Team message; Settings > Verify account accepts exactly this code. */
export function verificationCode(seed: number): string {
  const r = rng((seed ^ 0x5ec0de) >>> 0);
  r();
  return String(100000 + Math.floor(r() * 900000));
}

/** People the user can write to (the `to` slot of send_mail). */
export const CONTACTS: readonly { name: string; email: string }[] = [
  { name: 'Priya Sharma', email: 'priya.sharma@example.com' },
  { name: 'Sam Carter', email: 'sam.carter@example.com' },
  { name: 'Alex Kim', email: 'alex.kim@example.com' },
  { name: 'Jordan Lee', email: 'jordan.lee@example.com' },
  { name: 'Maria Garcia', email: 'maria.garcia@example.com' },
];

export const MAIL_SUBJECTS = ['Lunch tomorrow', 'Project update', 'Weekend plans', 'Invoice question'] as const;
export const MAIL_BODIES = ['See you at noon.', 'The draft is ready for review.', 'Are you free on Saturday?', 'Could you resend the invoice?'] as const;

const m = (from: string, email: string, subject: string, body: string): SeedMessage => ({ from, email, subject, body });

/** Inbox messages besides the Security Team one. Near-duplicates: Team lunch on Friday / Thursday, Security Tips. */
export const SEED_MESSAGES: readonly SeedMessage[] = [
  m('Priya Sharma', 'priya.sharma@example.com', 'Q3 roadmap review', 'Hi, I have attached the roadmap slides. Please add your comments before Thursday.'),
  m('Sam Carter', 'sam.carter@example.com', 'Team lunch on Friday', 'Shall we try the new noodle place on Friday at 12:30? Reply if you are in.'),
  m('Sam Carter', 'sam.carter@example.com', 'Team lunch on Thursday', 'Moving the lunch to Thursday this week because of the offsite.'),
  m('Foodie', 'orders@foodie.example.com', 'Your order receipt', 'Thanks for ordering with Foodie. Your receipt is attached.'),
  m('Alex Kim', 'alex.kim@example.com', 'Photos from the hike', 'Here are the photos from Saturday. The view from the top was great.'),
  m('Security Tips', 'tips@accounts.example.com', '5 ways to keep your account safe', 'Use a strong password, turn on two-step verification and review your devices.'),
  m('Jordan Lee', 'jordan.lee@example.com', 'Invoice 2291', 'Please find invoice 2291 for the design work attached. Payment is due in 30 days.'),
  m('City Library', 'no-reply@library.example.org', 'Your books are due soon', 'Two items are due next week. You can renew them online.'),
  m('Maria Garcia', 'maria.garcia@example.com', 'Book club this month', 'We are reading Piranesi. Meeting at my place, bring snacks.'),
  m('Travel Deals', 'deals@travel.example.com', 'Weekend getaways from $99', 'Pack your bags: city breaks and beach escapes on sale this week.'),
  m('Priya Sharma', 'priya.sharma@example.com', 'Budget sheet', 'Can you update the budget sheet with the new vendor quotes?'),
  m('Bank Alerts', 'alerts@bank.example.com', 'Your monthly statement', 'Your statement for last month is ready to view in online banking.'),
  m('Alex Kim', 'alex.kim@example.com', 'Board game night', 'Game night at my place next Tuesday. I will bring Catan.'),
  m('Gym Club', 'hello@gym.example.com', 'New yoga classes', 'We added morning yoga on Mondays and Wednesdays.'),
  m('Jordan Lee', 'jordan.lee@example.com', 'Logo drafts', 'Three logo drafts are ready. Let me know which direction you prefer.'),
  m('Sam Carter', 'sam.carter@example.com', 'Car pool next week', 'I can drive on Monday and Tuesday if you take Wednesday.'),
  m('Streaming+', 'billing@stream.example.com', 'Payment received', 'Thanks, we received your payment for the Premium plan.'),
  m('Maria Garcia', 'maria.garcia@example.com', 'Recipe you asked for', 'Here is the lemon pasta recipe: lemon, parmesan, butter, pasta.'),
];

export const ARCHIVABLE_SUBJECTS: readonly string[] = SEED_MESSAGES.map((x) => x.subject);
export const PAGE_SIZE = 10;
