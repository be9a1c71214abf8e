import { readFileSync } from 'node:fs';
import { AppDag } from '../../../domain/dag.js';
import { parseOrThrow } from '../../../domain/errors.js';
import type { AppModule } from '../../app-types.js';
import { handleShop } from './app.js';
import { shopCheckers } from './checkers.js';
import { initialShopState, type ShopState } from './state.js';

export const SHOP_DAG_PATH = new URL('./dag.json', import.meta.url);

export function loadShopDag(): AppDag {
  return parseOrThrow(AppDag, JSON.parse(readFileSync(SHOP_DAG_PATH, 'utf8')), 'environments/apps/shop/dag.json');
}

export const shopApp: AppModule<ShopState> = {
  id: 'shop',
  title: 'ShopMart',
  icon: { color: '#0b7285', glyph: 'S' },
  dag: loadShopDag(),
  initialState: initialShopState,
  handle: handleShop,
  checkers: shopCheckers,
};
