import { rng, shuffle } from '../shared.js';

export interface Prescription {
  id: number;
  /** Medication and strength as shown ("Lisinopril 10 mg"); near-duplicates differ only in strength. */
  name: string;
  directions: string;
  refillsLeft: number;
  /** Refills requested in this session (each one a confirmed request). */
  refillsRequested: number;
  /** Daily reminder switch on the Reminders tab. */
  reminder: boolean;
  reminderTime: string;
}

export interface Transfer {
  medication: string;
  rxNumber: string;
  fromPharmacy: string;
}

/** Pharmacy's per-session state. Read by checkers in-process; the page never sees this object. */
export interface PharmacyState {
  seed: number;
  prescriptions: Prescription[];
  transfers: Transfer[];
  store: string;
  /** Every store the user picked, in order (a store chosen and changed back still counts once). */
  storeChanges: string[];
  seq: number;
}

export const STORES: readonly string[] = ['Main Street', 'Oak Park Plaza', 'Riverside Mall', 'Harbor Point', 'Westgate Center'];
export const DEFAULT_STORE = 'Main Street';

/** Name, directions, refills left, reminder on, reminder time. */
const RX: readonly (readonly [string, string, number, boolean, string])[] = [
  ['Lisinopril 10 mg', 'Take 1 tablet by mouth every morning', 3, true, '8:00 AM'],
  ['Lisinopril 20 mg', 'Take 1 tablet by mouth every morning', 2, false, '8:00 AM'],
  ['Metformin 500 mg', 'Take 1 tablet twice a day with meals', 5, true, '7:30 AM'],
  ['Atorvastatin 20 mg', 'Take 1 tablet at bedtime', 4, false, '10:00 PM'],
  ['Omeprazole 20 mg', 'Take 1 capsule before breakfast', 1, true, '7:00 AM'],
  ['Sertraline 50 mg', 'Take 1 tablet daily', 2, false, '9:00 AM'],
  ['Levothyroxine 50 mcg', 'Take 1 tablet on an empty stomach', 6, true, '6:30 AM'],
  ['Levothyroxine 75 mcg', 'Take 1 tablet on an empty stomach', 0, false, '6:30 AM'],
  ['Amlodipine 5 mg', 'Take 1 tablet daily', 3, false, '9:00 PM'],
  ['Montelukast 10 mg', 'Take 1 tablet in the evening', 2, true, '8:30 PM'],
];

/** Prescriptions with a refill left (refill_prescription values). */
export const REFILLABLE: readonly string[] = RX.filter(([, , r]) => r > 0).map(([n]) => n);
/** Every prescription (reminders exist for all). */
export const MEDICATIONS: readonly string[] = RX.map(([n]) => n);
export const TRANSFER_PHARMACIES: readonly string[] = ['CityCare Drugs', 'Greenleaf Pharmacy', 'Budget Rx', 'Corner Apothecary'];
export const TRANSFER_MEDICATIONS: readonly string[] = ['Losartan 50 mg', 'Simvastatin 40 mg', 'Gabapentin 300 mg', 'Escitalopram 10 mg', 'Pantoprazole 40 mg'];
export const RX_NUMBERS: readonly string[] = ['4820193', '7315508', '2209471', '6648320', '5190736'];

export function initialPharmacyState(seed: number): PharmacyState {
  const rand = rng(seed ^ 0x7a4c31);
  const prescriptions = shuffle(RX, rand).map(([name, directions, refillsLeft, reminder, reminderTime], i) => ({
    id: i + 1,
    name,
    directions,
    refillsLeft,
    refillsRequested: 0,
    reminder,
    reminderTime,
  }));
  return { seed, prescriptions, transfers: [], store: DEFAULT_STORE, storeChanges: [], seq: 0 };
}

/** Whether each medication's reminder is on when a session starts (the same for every seed). */
export const REMINDER_ON: Readonly<Record<string, boolean>> = Object.fromEntries(RX.map(([n, , , on]) => [n, on]));
