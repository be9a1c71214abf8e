import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { ADDRESSES, PAYMENTS, QUANTITIES, dishOf, restaurantById, restaurantByName, sameText, type Dish, type Restaurant } from './catalog.js';
import type { FoodState } from './state.js';
import type { NotesState } from '../notes/state.js';

export const FOOD_FAMILIES = ['view_menu', 'search_restaurant', 'add_to_cart', 'order_dish', 'order_from_note'] as const;
export type FoodFamily = (typeof FOOD_FAMILIES)[number];

const ok = (reason: string): CheckResult => ({ success: true, reason });
const no = (reason: string): CheckResult => ({ success: false, reason });

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`food checker ${spec.family}: missing param "${key}"`);
  return v;
}
function restaurantParam(spec: CheckerSpec): Restaurant {
  const name = param(spec, 'restaurant');
  const r = restaurantByName(name);
  if (!r) throw new Error(`food checker ${spec.family}: unknown restaurant "${name}"`);
  return r;
}
function dishParam(spec: CheckerSpec, r: Restaurant): Dish {
  const name = param(spec, 'dish');
  const dish = dishOf(r, name);
  if (!dish) throw new Error(`food checker ${spec.family}: "${name}" is not on the menu of ${r.name}`);
  return dish;
}
function quantityParam(spec: CheckerSpec): number {
  const q = param(spec, 'quantity');
  if (!(QUANTITIES as readonly string[]).includes(q)) throw new Error(`food checker ${spec.family}: bad quantity "${q}"`);
  return Number(q);
}

const rName = (id: string): string => restaurantById(id)?.name ?? id;
const dName = (rid: string, did: string): string => restaurantById(rid)?.menu.find((m) => m.id === did)?.name ?? did;

/** Title of the Notes note whose delivery address `order_from_note` must be used. */
export const DINNER_NOTE = 'Dinner plans';

/**
 * The address written in the session's "Dinner plans" note (cross-app: read from `world.notes`): the first
 * of Foodie's ADDRESSES its text contains, as the note reads now. Undefined when there is no notes state.
 */
export function noteAddress(world: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const notes = world?.notes as NotesState | undefined;
  if (!notes || !Array.isArray(notes.notes)) return undefined;
  const note = notes.notes.find((n) => n.seeded && sameText(n.title, DINNER_NOTE));
  const found = note ? ADDRESSES.find((a) => note.body.toLowerCase().includes(a.toLowerCase())) : undefined;
  return found ?? notes.dinnerAddress;
}

/**
 * Success checkers for Foodie. They read the server-side session state in-process (never through the page),
 * so an agent cannot influence them except by operating the app. `order_from_note` is cross-app: the
 * delivery address must be the one in the Notes app's "Dinner plans" note of the same session (`world`).
 */
export function check(state: FoodState, spec: CheckerSpec, world?: Readonly<Record<string, unknown>>): CheckResult {
  if (spec.app !== 'food') throw new Error(`food checker got a spec for app "${spec.app}"`);
  switch (spec.family as FoodFamily) {
    case 'view_menu': {
      const r = restaurantParam(spec);
      if (state.visits.some((v) => v.page === 'restaurant' && v.restaurantId === r.id)) return ok(`opened ${r.name}`);
      const other = state.visits.filter((v) => v.page === 'restaurant').map((v) => rName(v.restaurantId ?? ''));
      return no(other.length ? `opened ${[...new Set(other)].join(', ')} but not ${r.name}` : `never opened ${r.name}`);
    }
    case 'search_restaurant': {
      const r = restaurantParam(spec);
      const matching = state.searches.filter((s) => r.name.toLowerCase().includes(s.q.toLowerCase()));
      if (matching.length === 0) {
        return no(state.searches.length ? `searched ${state.searches.map((s) => `"${s.q}"`).join(', ')}, none matches ${r.name}` : 'no search was submitted');
      }
      const first = matching[0]?.seq ?? 0;
      if (state.visits.some((v) => v.page === 'restaurant' && v.restaurantId === r.id && v.seq > first)) return ok(`searched and opened ${r.name}`);
      return no(`searched for ${r.name} but did not open it afterwards`);
    }
    case 'add_to_cart': {
      const r = restaurantParam(spec);
      const dish = dishParam(spec, r);
      const qty = quantityParam(spec);
      const line = state.cart.find((l) => l.restaurantId === r.id && l.dishId === dish.id);
      if (line?.qty === qty) return ok(`cart has ${qty} × ${dish.name} from ${r.name}`);
      if (line) return no(`cart has ${line.qty} × ${dish.name} from ${r.name}, expected ${qty}`);
      const elsewhere = state.cart.find((l) => l.dishId === dish.id);
      if (elsewhere) return no(`${dish.name} is in the cart from ${rName(elsewhere.restaurantId)}, not ${r.name}`);
      return no(`${dish.name} from ${r.name} is not in the cart`);
    }
    case 'order_dish': {
      const r = restaurantParam(spec);
      const dish = dishParam(spec, r);
      const qty = quantityParam(spec);
      const address = param(spec, 'address');
      const payment = PAYMENTS.find((p) => sameText(p, param(spec, 'payment')));
      if (!payment) throw new Error(`food checker order_dish: unknown payment "${spec.params.payment}"`);
      if (state.orders.length === 0) return no('no order was placed');
      if (state.orders.length > 1) return no(`${state.orders.length} orders were placed, expected exactly one`);
      const o = state.orders[0];
      if (!o) return no('no order was placed');
      const problems: string[] = [];
      const desc = o.lines.map((l) => `${l.qty} × ${dName(l.restaurantId, l.dishId)} (${rName(l.restaurantId)})`).join(', ');
      const line = o.lines.find((l) => l.restaurantId === r.id && l.dishId === dish.id);
      if (o.lines.length !== 1 || !line) problems.push(`order contains ${desc}, expected ${qty} × ${dish.name} (${r.name})`);
      else if (line.qty !== qty) problems.push(`ordered ${line.qty} × ${dish.name}, expected ${qty}`);
      if (!sameText(o.address, address)) problems.push(`address "${o.address}", expected "${address}"`);
      if (o.payment !== payment) problems.push(`paid by ${o.payment}, expected ${payment}`);
      return problems.length ? no(problems.join('; ')) : ok(`order #${o.orderNo}: ${desc} to ${o.address}, ${o.payment}`);
    }
    case 'order_from_note': {
      const r = restaurantParam(spec);
      const dish = dishParam(spec, r);
      const address = noteAddress(world);
      if (address === undefined) throw new Error('food checker order_from_note: needs the session world with the notes app state');
      if (state.orders.length === 0) return no('no order was placed');
      if (state.orders.length > 1) return no(`${state.orders.length} orders were placed, expected exactly one`);
      const o = state.orders[0];
      if (!o) return no('no order was placed');
      const problems: string[] = [];
      const desc = o.lines.map((l) => `${l.qty} × ${dName(l.restaurantId, l.dishId)} (${rName(l.restaurantId)})`).join(', ');
      const line = o.lines.find((l) => l.restaurantId === r.id && l.dishId === dish.id);
      if (o.lines.length !== 1 || line?.qty !== 1) problems.push(`order contains ${desc}, expected 1 × ${dish.name} (${r.name})`);
      if (!sameText(o.address, address)) problems.push(`address "${o.address}", but the note "${DINNER_NOTE}" says "${address}"`);
      return problems.length ? no(problems.join('; ')) : ok(`order #${o.orderNo}: ${desc} to ${o.address} (from the note)`);
    }
    default:
      throw new Error(`food checker: unknown task family "${spec.family}" (known: ${FOOD_FAMILIES.join(', ')})`);
  }
}

export const foodCheckers: AppCheckers<FoodState> = { families: FOOD_FAMILIES, check };
