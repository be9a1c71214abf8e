import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppDag } from '../../domain/dag.js';
import { loadDags, checkApp, BUILT_IN_APPS } from '../../environments/app-world.js';
import { RESTAURANTS, menus, isSatisfiable, ADDRESSES, PAYMENTS } from '../../environments/apps/food/catalog.js';
import { check } from '../../environments/apps/food/checkers.js';
import { initialFoodState, type FoodState } from '../../environments/apps/food/state.js';
import { startAppServer } from '../../environments/app-server.js';

const dagJson: unknown = JSON.parse(readFileSync(new URL('../../environments/apps/food/dag.json', import.meta.url), 'utf8'));

describe('Foodie DAG', () => {
  it('validates with AppDag and is what loadDags returns', () => {
    const dag = AppDag.parse(dagJson);
    expect(loadDags().map((d) => d.app)).toContain('food');
    expect(loadDags().find((d) => d.app === 'food')).toEqual(dag);
    expect(dag.tasks.map((t) => t.id)).toEqual(['view_menu', 'search_restaurant', 'add_to_cart', 'order_dish', 'order_from_note']);
  });

  it('only uses slot values that exist in the catalogue, and every template slot is defined on its path', () => {
    const dag = AppDag.parse(dagJson);
    const slotValues = new Map<string, Set<string>>();
    for (const p of dag.pages) for (const s of p.slots) slotValues.set(s.key, new Set([...(slotValues.get(s.key) ?? []), ...s.values]));
    expect([...(slotValues.get('restaurant') ?? [])].sort()).toEqual(RESTAURANTS.map((r) => r.name).sort());
    const allDishes = new Set(RESTAURANTS.flatMap((r) => r.menu.map((m) => m.name)));
    expect([...(slotValues.get('dish') ?? [])].every((d) => allDishes.has(d))).toBe(true);
    expect([...(slotValues.get('address') ?? [])]).toEqual([...ADDRESSES]);
    expect([...(slotValues.get('payment') ?? [])]).toEqual([...PAYMENTS]);
    for (const task of dag.tasks) {
      const onPath = new Set(dag.pages.filter((p) => task.path.includes(p.id)).flatMap((p) => p.slots.map((s) => s.key)));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(onPath.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
  });

  it('has near-duplicate restaurants and dishes unique to one restaurant', () => {
    expect(menus['Burger Palace']).toContain('Classic Burger');
    expect(menus['Burger Place']).toContain('Classic Burger');
    expect(isSatisfiable({ restaurant: 'Burger Palace', dish: 'Royal Cheeseburger' })).toBe(true);
    expect(isSatisfiable({ restaurant: 'Burger Place', dish: 'Royal Cheeseburger' })).toBe(false);
    expect(isSatisfiable({ restaurant: 'Burger Plaza' })).toBe(false);
    for (const r of RESTAURANTS) expect(r.menu.length).toBeGreaterThanOrEqual(4);
  });
});

describe('Foodie state and checkers', () => {
  const spec = (family: string, params: Record<string, string>) => ({ app: 'food', family, params });
  const order = (s: FoodState, restaurantId: string, dishId: string, qty: number, address: string, payment: 'Cash' | 'Card'): void => {
    s.orders.push({ orderNo: s.nextOrderNo++, lines: [{ restaurantId, dishId, qty }], address, payment, totalCents: 1, seq: ++s.seq });
  };
  const params = { restaurant: 'Burger Palace', dish: 'Classic Burger', quantity: '2', address: '221 Elm Road', payment: 'Card' };

  it('initial state is deterministic per seed and differs across seeds', () => {
    expect(initialFoodState(7)).toEqual(initialFoodState(7));
    expect(initialFoodState(7).restaurantOrder).not.toEqual(initialFoodState(8).restaurantOrder);
    expect([...initialFoodState(7).restaurantOrder].sort()).toEqual(RESTAURANTS.map((r) => r.id).sort());
  });

  it('order_dish succeeds only for the exact order', () => {
    const good = initialFoodState(1);
    order(good, 'burger_palace', 'classic_burger', 2, ' 221  elm road ', 'Card');
    expect(check(good, spec('order_dish', params))).toMatchObject({ success: true });

    const nearDup = initialFoodState(1);
    order(nearDup, 'burger_place', 'classic_burger', 2, '221 Elm Road', 'Card');
    const r = check(nearDup, spec('order_dish', params));
    expect(r.success).toBe(false);
    expect(r.reason).toContain('Burger Place');

    const wrongQty = initialFoodState(1);
    order(wrongQty, 'burger_palace', 'classic_burger', 3, '221 Elm Road', 'Card');
    expect(check(wrongQty, spec('order_dish', params)).reason).toContain('expected 2');

    const wrongPay = initialFoodState(1);
    order(wrongPay, 'burger_palace', 'classic_burger', 2, '221 Elm Road', 'Cash');
    expect(check(wrongPay, spec('order_dish', params))).toEqual({ success: false, reason: 'paid by Cash, expected Card' });

    expect(check(initialFoodState(1), spec('order_dish', params))).toEqual({ success: false, reason: 'no order was placed' });
  });

  it('add_to_cart, view_menu and search_restaurant read cart, visits and searches', () => {
    const s = initialFoodState(2);
    s.cart.push({ restaurantId: 'sushi_zone', dishId: 'salmon_nigiri', qty: 1 });
    const p = { restaurant: 'Sushi Zen', dish: 'Salmon Nigiri', quantity: '1' };
    expect(check(s, spec('add_to_cart', p)).reason).toContain('from Sushi Zone');
    s.cart.push({ restaurantId: 'sushi_zen', dishId: 'salmon_nigiri', qty: 1 });
    expect(check(s, spec('add_to_cart', p)).success).toBe(true);

    expect(check(s, spec('view_menu', { restaurant: 'Sushi Zen' })).success).toBe(false);
    s.visits.push({ page: 'restaurant', restaurantId: 'sushi_zen', seq: ++s.seq });
    expect(check(s, spec('view_menu', { restaurant: 'Sushi Zen' })).success).toBe(true);
    // Opened, but before searching: not a search task success.
    s.searches.push({ q: 'sushi', seq: ++s.seq });
    expect(check(s, spec('search_restaurant', { restaurant: 'Sushi Zen' })).success).toBe(false);
    s.visits.push({ page: 'restaurant', restaurantId: 'sushi_zen', seq: ++s.seq });
    expect(check(s, spec('search_restaurant', { restaurant: 'Sushi Zen' })).success).toBe(true);
  });

  it('throws clear errors for unknown families, apps and slot values', () => {
    const s = initialFoodState(0);
    expect(() => check(s, spec('fly_to_moon', {}))).toThrow(/unknown task family "fly_to_moon"/);
    expect(() => check(s, spec('view_menu', { restaurant: 'Burger Plaza' }))).toThrow(/unknown restaurant "Burger Plaza"/);
    expect(() => check(s, spec('add_to_cart', { restaurant: 'Burger Place', dish: 'Royal Cheeseburger', quantity: '1' }))).toThrow(/not on the menu of Burger Place/);
    expect(() => checkApp(s, { app: 'nope', family: 'x', params: {} })).toThrow(/unknown app "nope"/);
    expect(BUILT_IN_APPS.find((a) => a.id === 'food')?.checkers.families.length).toBe(5);
  });

  it('app server keeps state per session, survives reload and resets deterministically', async () => {
    const server = await startAppServer();
    try {
      server.reset('a', 5);
      const res = await fetch(`${server.baseUrl}/s/a/app/food/api/cart`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ restaurantId: 'pizza_roma', dishId: 'tiramisu', delta: 1 }),
      });
      expect(await res.json()).toMatchObject({ count: 1, total: '$6.49' });
      const page = await (await fetch(`${server.baseUrl}/s/a/app/food/cart`)).text();
      expect(page).toContain('Tiramisu');
      expect((server.state('a').food as FoodState).cart).toEqual([{ restaurantId: 'pizza_roma', dishId: 'tiramisu', qty: 1 }]);
      expect((server.state('b').food as FoodState).cart).toEqual([]);
      server.reset('a', 5);
      expect(server.state('a').food).toEqual(initialFoodState(5));
    } finally {
      await server.close();
    }
  });
});
