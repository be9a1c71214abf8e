import { rng, shuffle } from '../shared.js';
import { CATEGORIES, productsIn, type ShippingLabel } from './catalog.js';

export interface ShopLine {
  productId: string;
  colour: string;
  size: string;
  qty: number;
}

export interface ShopOrder {
  orderNo: number;
  lines: ShopLine[];
  address: string;
  shipping: ShippingLabel;
  totalCents: number;
  seq: number;
}

export interface ShopVisit {
  page: 'home' | 'category' | 'product' | 'cart' | 'checkout' | 'order' | 'wishlist';
  id?: string;
  seq: number;
}

/** ShopMart's per-session state; read by the checkers in-process, never sent to the page as a whole. */
export interface ShopState {
  seed: number;
  /** Product ids per category, in the order the list shows them (shuffled by seed). */
  productOrder: Record<string, string[]>;
  /** Units left per product (seeded, shown as "Only N left" when low). */
  stock: Record<string, number>;
  cart: ShopLine[];
  wishlist: string[];
  checkout: { address: string; shipping: ShippingLabel | null };
  orders: ShopOrder[];
  visits: ShopVisit[];
  nextOrderNo: number;
  seq: number;
}

export function initialShopState(seed: number): ShopState {
  const rand = rng(seed ^ 0x5409);
  const productOrder: Record<string, string[]> = {};
  const stock: Record<string, number> = {};
  for (const c of CATEGORIES) {
    productOrder[c] = shuffle(
      productsIn(c).map((x) => x.id),
      rand,
    );
    for (const id of productOrder[c] ?? []) stock[id] = 2 + Math.floor(rand() * 30);
  }
  return {
    seed,
    productOrder,
    stock,
    cart: [],
    wishlist: [],
    checkout: { address: '', shipping: null },
    orders: [],
    visits: [],
    nextOrderNo: 50000 + Math.floor(rand() * 40000),
    seq: 0,
  };
}
