import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  BOOK_DAYS,
  dayLabel,
  FULFILLMENT_NAMES,
  MED_NAMES,
  parseWeight,
  PET_NAMES,
  SPECIES,
  SUPPLY_NAMES,
  timesOf,
  VISIT_NAMES,
  type Appointment,
  type Medication,
  type VetState,
} from './state.js';

export const VET_FAMILIES = ['book_appointment', 'cancel_appointment', 'refill_prescription', 'add_pet'] as const;
export type VetFamily = (typeof VET_FAMILIES)[number];

/** Day labels a spec may name ("Thursday, October 9"): today and the next four weeks. */
const DAY_LABELS: readonly string[] = Array.from({ length: 28 }, (_, i) => dayLabel(i));
const ALL_TIMES: readonly string[] = [...new Set(BOOK_DAYS.flatMap((d) => timesOf(d)))];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`vet checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`vet checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for PawPoint; they read the server-side session state in-process. */
export function check(state: VetState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'vet') throw new Error(`vet checker got a spec for app "${spec.app}"`);
  const petName = (id: number): string => state.pets.find((p) => p.id === id)?.name ?? 'a pet';
  const visit = (a: Appointment): string => `${petName(a.petId)}: ${a.visitType} on ${dayLabel(a.day)} at ${a.time}`;
  const med = (m: Medication | undefined): string => (m ? `${petName(m.petId)}'s ${m.name}` : 'an unknown medication');
  const booked = state.appointments.filter((a) => !a.seeded && a.status === 'booked');
  const cancelled = state.appointments.filter((a) => a.seeded && a.status === 'cancelled');
  const dayIndex = (label: string): number => DAY_LABELS.findIndex((d) => same(d, label));
  switch (spec.family as VetFamily) {
    case 'book_appointment': {
      const pet = param(spec, 'pet', PET_NAMES);
      const type = param(spec, 'visit_type', VISIT_NAMES);
      const day = param(spec, 'visit_day', DAY_LABELS);
      const time = param(spec, 'visit_time', ALL_TIMES);
      const want = (a: Appointment): boolean => same(petName(a.petId), pet) && same(a.visitType, type) && a.day === dayIndex(day) && same(a.time, time);
      const a = booked.find(want) ?? booked[booked.length - 1];
      if (!a) return no('no visit was booked');
      if (!same(petName(a.petId), pet)) return no(`the visit was booked for ${petName(a.petId)}, expected ${pet}`);
      if (!same(a.visitType, type)) return no(`${pet}'s visit was booked as ${a.visitType}, expected ${type}`);
      if (a.day !== dayIndex(day)) return no(`${pet}'s visit was booked on ${dayLabel(a.day)}, expected ${day}`);
      if (!same(a.time, time)) return no(`${pet}'s visit was booked at ${a.time}, expected ${time}`);
      if (booked.length > 1) return no(`${booked.length} visits were booked (${list(booked.map(visit))}), expected one`);
      if (cancelled.length) return no(`${pet}'s visit was booked but ${list(cancelled.map(visit))} was cancelled`);
      return ok(`booked ${visit(a)}`);
    }
    case 'cancel_appointment': {
      const pet = param(spec, 'cancel_pet', PET_NAMES);
      const day = param(spec, 'cancel_day', DAY_LABELS);
      const target = state.appointments.find((a) => a.seeded && same(petName(a.petId), pet) && a.day === dayIndex(day));
      if (!target) throw new Error(`vet checker cancel_appointment: no visit for ${pet} on ${day}`);
      const others = cancelled.filter((a) => a.id !== target.id).map(visit);
      if (target.status === 'booked') return no(`${pet}'s visit on ${day} is still booked${others.length ? ` (cancelled ${list(others)} instead)` : ''}`);
      if (others.length) return no(`${pet}'s visit on ${day} was cancelled but ${list(others)} too`);
      if (booked.length) return no(`${pet}'s visit on ${day} was cancelled but ${list(booked.map(visit))} was booked`);
      return ok(`cancelled ${visit(target)}`);
    }
    case 'refill_prescription': {
      const pet = param(spec, 'med_pet', PET_NAMES);
      const name = param(spec, 'medication', MED_NAMES);
      const supply = param(spec, 'supply', SUPPLY_NAMES);
      const how = param(spec, 'fulfillment', FULFILLMENT_NAMES);
      const target = state.meds.find((m) => same(petName(m.petId), pet) && same(m.name, name));
      if (!target) throw new Error(`vet checker refill_prescription: ${pet} has no prescription "${name}"`);
      const asked = state.refills;
      const medOf = (id: number): Medication | undefined => state.meds.find((m) => m.id === id);
      const r = asked.find((x) => x.medId === target.id);
      if (!r) return no(asked.length ? `no refill of ${med(target)} was requested (requested ${list(asked.map((x) => med(medOf(x.medId))))} instead)` : 'no refill was requested');
      if (!same(r.supply, supply)) return no(`the refill of ${med(target)} is a ${r.supply}, expected a ${supply}`);
      if (!same(r.fulfillment, how)) return no(`the refill of ${med(target)} is set for ${r.fulfillment}, expected ${how}`);
      if (asked.length > 1) return no(`${asked.length} refills were requested (${list(asked.map((x) => med(medOf(x.medId))))}), expected one`);
      return ok(`requested a ${supply} of ${med(target)} for ${how}`);
    }
    case 'add_pet': {
      const name = param(spec, 'new_pet');
      const species = param(spec, 'species', SPECIES);
      const breed = param(spec, 'breed');
      const weightText = param(spec, 'weight');
      const weight = parseWeight(weightText);
      if (Number.isNaN(weight)) throw new Error(`vet checker add_pet: bad weight "${weightText}"`);
      const added = state.pets.filter((p) => p.added);
      const p = added.find((x) => same(x.name, name)) ?? added[added.length - 1];
      if (!p) return no('no pet was added');
      if (!same(p.name, name)) return no(`the pet added is "${p.name}", expected "${name}"`);
      if (!same(p.species, species)) return no(`${p.name} was added as a ${p.species}, expected a ${species}`);
      if (!same(p.breed, breed)) return no(`${p.name}'s breed is "${p.breed}", expected "${breed}"`);
      if (Math.abs(p.weightLb - weight) > 0.001) return no(`${p.name} weighs ${p.weightLb} lb in the app, expected ${weight} lb`);
      if (added.length > 1) return no(`${added.length} pets were added (${list(added.map((x) => x.name))}), expected one`);
      return ok(`added ${p.name}, a ${p.species} (${p.breed}), ${p.weightLb} lb`);
    }
    default:
      throw new Error(`vet checker: unknown task family "${spec.family}" (known: ${VET_FAMILIES.join(', ')})`);
  }
}

export const vetCheckers: AppCheckers<VetState> = { families: VET_FAMILIES, check };
