import { describe, expect, it } from 'vitest';
import { cartCount, unrequestedCartChange } from '../../models/reference/roles/evidence.js';

/** Read off v28's one false acceptance (issue 17): a look request that filled the cart on the way. Invented data here. */
describe('a cart filled on the way that the request never asked for', () => {
  const home = ['9:41', 'Grubly', 'Nearby', 'Pho Garden', 'Home', 'Cart', 'Orders'];
  const page = (n: number): string[] => ['Pho Garden', 'Beef Pho $12.00', 'Add', 'Spring Rolls $6.50', 'Add', 'Home', n ? `Cart (${n})` : 'Cart', 'Orders'];
  it('reads a badge in its usual forms', () => {
    expect(cartCount(['Cart (3)'])).toBe(3);
    expect(cartCount(['Basket 2'])).toBe(2);
    expect(cartCount(['Cart'])).toBe(0);
    expect(cartCount(['Cart total $12.50'])).toBe(0);
  });
  it('a search whose final screen holds items the cart did not hold before is an unrequested change', () => {
    expect(unrequestedCartChange('Search Grubly: Pho Garden.', [['Home screen'], home, page(1), page(2)])).toEqual({ before: 0, after: 2 });
    expect(unrequestedCartChange('Show me the Pho Garden menu', [home, page(1)])).toEqual({ before: 0, after: 1 });
  });
  it('is no evidence when the request acquires something, when nothing was added, or when the cart is first seen at the end', () => {
    expect(unrequestedCartChange('Add 2 Beef Pho from Pho Garden', [home, page(2)])).toBeUndefined();
    expect(unrequestedCartChange('I need a Beef Pho from Pho Garden tonight', [home, page(1)])).toBeUndefined();
    expect(unrequestedCartChange('Search Grubly: Pho Garden.', [home, page(0)])).toBeUndefined();
    expect(unrequestedCartChange('Search Grubly: Pho Garden.', [page(2), page(2)])).toBeUndefined();
    expect(unrequestedCartChange('Search Grubly: Pho Garden.', [['Home screen'], page(2)])).toBeUndefined();
  });
});
