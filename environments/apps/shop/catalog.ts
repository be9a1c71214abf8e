/**
 * ShopMart's fixed catalogue. The DAG's slot values are drawn from it and the checkers resolve names
 * against it. Several products are near-duplicates (Trail Runner Sneakers / Trail Runner Sneakers Pro).
 */
import { sameText } from '../mobile-kit.js';

export interface Product {
  id: string;
  name: string;
  category: string;
  /** Price in cents. */
  price: number;
  description: string;
  colours: string[];
  sizes: string[];
  /** Swatch colour of the product picture (drawn in CSS, no images). */
  tint: string;
}

export const CATEGORIES = ['Sneakers', 'T-Shirts', 'Hoodies', 'Jackets'] as const;
export type Category = (typeof CATEGORIES)[number];

const SHOE_SIZES = ['39', '40', '41', '42', '43', '44', '45'];
const CLOTH_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

const p = (id: string, name: string, category: Category, price: number, description: string, colours: string[], tint: string): Product => ({
  id,
  name,
  category,
  price,
  description,
  colours,
  sizes: category === 'Sneakers' ? SHOE_SIZES : CLOTH_SIZES,
  tint,
});

export const PRODUCTS: readonly Product[] = [
  p('trail_runner', 'Trail Runner Sneakers', 'Sneakers', 8999, 'Grippy outsole for muddy paths.', ['Black', 'Grey', 'Olive'], '#495057'),
  p('trail_runner_pro', 'Trail Runner Sneakers Pro', 'Sneakers', 11999, 'Carbon plate and waterproof upper.', ['Black', 'Orange', 'Blue'], '#d9480f'),
  p('city_walk', 'City Walk Sneakers', 'Sneakers', 6950, 'Soft leather everyday sneaker.', ['White', 'Black', 'Tan'], '#a07c5b'),
  p('cotton_tee', 'Classic Cotton Tee', 'T-Shirts', 1999, 'Heavy organic cotton, regular fit.', ['White', 'Black', 'Navy', 'Red'], '#1c7ed6'),
  p('cotton_tee_slim', 'Classic Cotton Tee Slim Fit', 'T-Shirts', 2199, 'The classic tee in a slimmer cut.', ['White', 'Black', 'Grey'], '#364fc7'),
  p('graphic_tee', 'Graphic Print Tee', 'T-Shirts', 2499, 'Mountain print on the front.', ['White', 'Green'], '#2f9e44'),
  p('zip_hoodie', 'Fleece Zip Hoodie', 'Hoodies', 4999, 'Full zip, brushed fleece inside.', ['Grey', 'Navy', 'Black'], '#5f3dc4'),
  p('pullover_hoodie', 'Fleece Pullover Hoodie', 'Hoodies', 4599, 'Kangaroo pocket, brushed fleece.', ['Grey', 'Burgundy'], '#a61e4d'),
  p('heavy_hoodie', 'Heavyweight Hoodie', 'Hoodies', 5999, 'Thick 450 gsm cotton.', ['Black', 'Sand'], '#7c6f57'),
  p('rain_shell', 'Rain Shell Jacket', 'Jackets', 8950, 'Fully taped seams, packable hood.', ['Yellow', 'Navy', 'Black'], '#f08c00'),
  p('rain_shell_lite', 'Rain Shell Jacket Lite', 'Jackets', 6950, 'Lighter shell for showers.', ['Yellow', 'Teal'], '#0c8599'),
  p('puffer', 'Puffer Jacket', 'Jackets', 12900, 'Recycled down fill, very warm.', ['Black', 'Red', 'Silver'], '#c92a2a'),
];

export const SHIPPING = [
  { id: 'standard', label: 'Standard', detail: '3-5 business days', price: 0 },
  { id: 'express', label: 'Express', detail: 'Next business day', price: 999 },
] as const;
export type ShippingLabel = (typeof SHIPPING)[number]['label'];

export const ADDRESSES = ['14 Rosewood Lane', '88 Station Road', '3 Quay Street', '27 Hillcrest Drive'] as const;
export const QUANTITIES = ['1', '2', '3'] as const;

export const productById = (id: string): Product | undefined => PRODUCTS.find((x) => x.id === id);
export const productByName = (name: string): Product | undefined => PRODUCTS.find((x) => sameText(x.name, name));
export const productsIn = (category: string): Product[] => PRODUCTS.filter((x) => sameText(x.category, category));
export const formatPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
