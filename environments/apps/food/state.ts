import { RESTAURANTS, type Payment } from './catalog.js';
import { rng, shuffle } from '../shared.js';

export interface CartLine {
  restaurantId: string;
  dishId: string;
  qty: number;
}

export interface PlacedOrder {
  orderNo: number;
  lines: CartLine[];
  address: string;
  payment: Payment;
  totalCents: number;
  seq: number;
}

/** What the user looked at, in order; `seq` is a per-session counter (no wall clock, so state is deterministic). */
export interface Visit {
  page: 'home' | 'restaurant' | 'cart' | 'checkout' | 'order_placed' | 'orders';
  restaurantId?: string;
  seq: number;
}

/** Foodie's per-session state. Read by checkers in-process; the page never sees this object. */
export interface FoodState {
  seed: number;
  /** Restaurant ids in the order the home list shows them (shuffled by seed). */
  restaurantOrder: string[];
  /** Delivery minutes per restaurant (seeded). */
  eta: Record<string, number>;
  cart: CartLine[];
  checkout: { address: string; payment: Payment | null };
  orders: PlacedOrder[];
  visits: Visit[];
  /** Submitted searches (Enter or the Search button). */
  searches: { q: string; seq: number }[];
  nextOrderNo: number;
  seq: number;
}

export function initialFoodState(seed: number): FoodState {
  const rand = rng(seed);
  const restaurantOrder = shuffle(
    RESTAURANTS.map((r) => r.id),
    rand,
  );
  const eta: Record<string, number> = {};
  for (const id of restaurantOrder) eta[id] = 15 + 5 * Math.floor(rand() * 6);
  return {
    seed,
    restaurantOrder,
    eta,
    cart: [],
    checkout: { address: '', payment: null },
    orders: [],
    visits: [],
    searches: [],
    nextOrderNo: 1000 + Math.floor(rand() * 9000),
    seq: 0,
  };
}
