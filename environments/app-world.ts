import type { AppDag } from '../domain/dag.js';
import type { CheckerSpec } from '../domain/entities.js';
import type { AppModule, CheckResult } from './app-types.js';
import { bankApp } from './apps/bank/index.js';
import { calendarApp } from './apps/calendar/index.js';
import { carshareApp } from './apps/carshare/index.js';
import { cinemaApp } from './apps/cinema/index.js';
import { clockApp } from './apps/clock/index.js';
import { contactsApp } from './apps/contacts/index.js';
import { driveApp } from './apps/drive/index.js';
import { fitnessApp } from './apps/fitness/index.js';
import { flightsApp } from './apps/flights/index.js';
import { foodApp } from './apps/food/index.js';
import { hotelApp } from './apps/hotel/index.js';
import { insuranceApp } from './apps/insurance/index.js';
import { jobsApp } from './apps/jobs/index.js';
import { laundryApp } from './apps/laundry/index.js';
import { libraryApp } from './apps/library/index.js';
import { mailApp } from './apps/mail/index.js';
import { mealsApp } from './apps/meals/index.js';
import { messagesApp } from './apps/messages/index.js';
import { notesApp } from './apps/notes/index.js';
import { parcelsApp } from './apps/parcels/index.js';
import { parkingApp } from './apps/parking/index.js';
import { pharmacyApp } from './apps/pharmacy/index.js';
import { plantsApp } from './apps/plants/index.js';
import { repairsApp } from './apps/repairs/index.js';
import { schoolApp } from './apps/school/index.js';
import { settingsApp } from './apps/settings/index.js';
import { shopApp } from './apps/shop/index.js';
import { smartHomeApp } from './apps/smarthome/index.js';
import { splitsApp } from './apps/splits/index.js';
import { transitApp } from './apps/transit/index.js';
import { tunesApp } from './apps/tunes/index.js';
import { utilityApp } from './apps/utility/index.js';
import { vetApp } from './apps/vet/index.js';

export type { AppModule, AppCheckers, CheckResult } from './app-types.js';

/** Built-in apps served by the app server. Add a new app here (its module, routes, state, checkers). */
export const BUILT_IN_APPS: readonly AppModule[] = [
  foodApp as AppModule,
  notesApp as AppModule,
  settingsApp as AppModule,
  mailApp as AppModule,
  clockApp as AppModule,
  shopApp as AppModule,
  contactsApp as AppModule,
  messagesApp as AppModule,
  calendarApp as AppModule,
  libraryApp as AppModule,
  pharmacyApp as AppModule,
  bankApp as AppModule,
  transitApp as AppModule,
  smartHomeApp as AppModule,
  parkingApp as AppModule,
  fitnessApp as AppModule,
  parcelsApp as AppModule,
  vetApp as AppModule,
  laundryApp as AppModule,
  cinemaApp as AppModule,
  plantsApp as AppModule,
  splitsApp as AppModule,
  mealsApp as AppModule,
  schoolApp as AppModule,
  flightsApp as AppModule,
  utilityApp as AppModule,
  hotelApp as AppModule,
  jobsApp as AppModule,
  repairsApp as AppModule,
  carshareApp as AppModule,
  tunesApp as AppModule,
  driveApp as AppModule,
  insuranceApp as AppModule,
];

/** Launcher icons that are not real apps: opening them shows a "Coming soon" page. */
export const DECORATIVE_APPS: readonly { id: string; title: string; color: string; glyph: string }[] = [
  { id: 'weather', title: 'Weather', color: '#1c7ed6', glyph: 'W' },
  { id: 'camera', title: 'Camera', color: '#495057', glyph: 'C' },
  { id: 'music', title: 'Music', color: '#ae3ec9', glyph: 'M' },
];

export function getApp(id: string): AppModule | undefined {
  return BUILT_IN_APPS.find((a) => a.id === id);
}

/** Every built-in app's DAG, validated with `AppDag` (each app module parses its dag.json when it loads). */
export function loadDags(): AppDag[] {
  return BUILT_IN_APPS.map((a) => a.dag);
}

/**
 * Runs the app's checker on that app's state; throws for an unknown app or family. `world` is every app's
 * state for the session (what `AppServer.state` returns), needed by cross-app families.
 */
export function checkApp(appState: unknown, spec: CheckerSpec, world?: Readonly<Record<string, unknown>>): CheckResult {
  const app = getApp(spec.app);
  if (!app) throw new Error(`unknown app "${spec.app}" (built-in: ${BUILT_IN_APPS.map((a) => a.id).join(', ')})`);
  return app.checkers.check(appState, spec, world);
}
