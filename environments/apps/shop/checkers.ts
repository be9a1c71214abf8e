import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { sameText } from '../mobile-kit.js';
import { QUANTITIES, SHIPPING, productById, productByName, type Product } from './catalog.js';
import type { ShopState } from './state.js';

export const SHOP_FAMILIES = ['view_product', 'add_to_wishlist', 'buy_product'] as const;
export type ShopFamily = (typeof SHOP_FAMILIES)[number];

const ok = (reason: string): CheckResult => ({ success: true, reason });
const no = (reason: string): CheckResult => ({ success: false, reason });

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`shop checker ${spec.family}: missing param "${key}"`);
  return v;
}
function productParam(spec: CheckerSpec): Product {
  const name = param(spec, 'product');
  const x = productByName(name);
  if (!x) throw new Error(`shop checker ${spec.family}: unknown product "${name}"`);
  if (spec.params.category !== undefined && !sameText(spec.params.category, x.category)) {
    throw new Error(`shop checker ${spec.family}: "${x.name}" is not in category "${spec.params.category}"`);
  }
  return x;
}
const pName = (id: string): string => productById(id)?.name ?? id;

/** ShopMart's success checkers; they read the session state in-process, never through the page. */
export function check(state: ShopState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'shop') throw new Error(`shop checker got a spec for app "${spec.app}"`);
  switch (spec.family as ShopFamily) {
    case 'view_product': {
      const x = productParam(spec);
      if (state.visits.some((v) => v.page === 'product' && v.id === x.id)) return ok(`opened ${x.name}`);
      const seen = [...new Set(state.visits.filter((v) => v.page === 'product').map((v) => pName(v.id ?? '')))];
      return no(seen.length ? `opened ${seen.join(', ')} but not ${x.name}` : `never opened ${x.name}`);
    }
    case 'add_to_wishlist': {
      const x = productParam(spec);
      if (state.wishlist.includes(x.id)) return ok(`${x.name} is in the wishlist`);
      return no(state.wishlist.length ? `wishlist has ${state.wishlist.map(pName).join(', ')}, not ${x.name}` : 'the wishlist is empty');
    }
    case 'buy_product': {
      const x = productParam(spec);
      const colour = param(spec, 'colour');
      const size = param(spec, 'size');
      const qty = param(spec, 'quantity');
      const address = param(spec, 'address');
      const shipping = SHIPPING.find((s) => sameText(s.label, param(spec, 'shipping')));
      if (!x.colours.some((c) => sameText(c, colour))) throw new Error(`shop checker buy_product: ${x.name} has no colour "${colour}"`);
      if (!x.sizes.some((s) => sameText(s, size))) throw new Error(`shop checker buy_product: ${x.name} has no size "${size}"`);
      if (!(QUANTITIES as readonly string[]).includes(qty)) throw new Error(`shop checker buy_product: bad quantity "${qty}"`);
      if (!shipping) throw new Error(`shop checker buy_product: unknown shipping "${spec.params.shipping}"`);
      if (state.orders.length === 0) return no('no order was placed');
      if (state.orders.length > 1) return no(`${state.orders.length} orders were placed, expected exactly one`);
      const o = state.orders[0];
      if (!o) return no('no order was placed');
      const desc = o.lines.map((l) => `${l.qty} × ${pName(l.productId)} (${l.colour}, ${l.size})`).join(', ');
      const problems: string[] = [];
      const line = o.lines[0];
      if (o.lines.length !== 1 || !line || line.productId !== x.id) problems.push(`order contains ${desc}, expected ${qty} × ${x.name}`);
      else {
        if (!sameText(line.colour, colour)) problems.push(`colour ${line.colour}, expected ${colour}`);
        if (!sameText(line.size, size)) problems.push(`size ${line.size}, expected ${size}`);
        if (line.qty !== Number(qty)) problems.push(`quantity ${line.qty}, expected ${qty}`);
      }
      if (!sameText(o.address, address)) problems.push(`address "${o.address}", expected "${address}"`);
      if (o.shipping !== shipping.label) problems.push(`${o.shipping} shipping, expected ${shipping.label}`);
      return problems.length ? no(problems.join('; ')) : ok(`order #${o.orderNo}: ${desc}, ${o.shipping} to ${o.address}`);
    }
    default:
      throw new Error(`shop checker: unknown task family "${spec.family}" (known: ${SHOP_FAMILIES.join(', ')})`);
  }
}

export const shopCheckers: AppCheckers<ShopState> = { families: SHOP_FAMILIES, check };
