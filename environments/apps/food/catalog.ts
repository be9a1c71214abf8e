/**
 * Foodie's fixed catalogue: restaurants and their menus. The app renders from it, the DAG's slot values
 * are drawn from it, and the checkers resolve names against it, so a generated task is satisfiable by
 * construction when its dish comes from `menus[restaurant]` (see `isSatisfiable`).
 */

export interface Dish {
  id: string;
  name: string;
  /** Price in cents. */
  price: number;
  description: string;
}

export interface Restaurant {
  id: string;
  name: string;
  cuisine: string;
  /** Thumbnail colour and initials (no emoji font on the device, so icons are drawn in CSS). */
  color: string;
  initials: string;
  rating: number;
  menu: Dish[];
}

const d = (id: string, name: string, price: number, description: string): Dish => ({ id, name, price, description });

export const RESTAURANTS: readonly Restaurant[] = [
  {
    id: 'burger_palace', name: 'Burger Palace', cuisine: 'Burgers · American', color: '#d9480f', initials: 'BP', rating: 4.6,
    menu: [
      d('classic_burger', 'Classic Burger', 899, 'Beef patty, cheddar, pickles'),
      d('royal_cheeseburger', 'Royal Cheeseburger', 1249, 'Double beef, double cheese'),
      d('sweet_potato_fries', 'Sweet Potato Fries', 449, 'With chipotle mayo'),
      d('vanilla_shake', 'Vanilla Shake', 549, 'Thick and creamy'),
    ],
  },
  {
    id: 'burger_place', name: 'Burger Place', cuisine: 'Burgers · Fast food', color: '#e67700', initials: 'BP', rating: 4.1,
    menu: [
      d('classic_burger', 'Classic Burger', 799, 'Beef patty, lettuce, tomato'),
      d('bacon_burger', 'Bacon Burger', 999, 'Smoked bacon, onion rings'),
      d('onion_rings', 'Onion Rings', 399, 'Crispy battered rings'),
      d('chocolate_shake', 'Chocolate Shake', 549, 'Dark chocolate'),
    ],
  },
  {
    id: 'sushi_zen', name: 'Sushi Zen', cuisine: 'Japanese · Sushi', color: '#c2255c', initials: 'SZ', rating: 4.8,
    menu: [
      d('salmon_nigiri', 'Salmon Nigiri', 699, 'Two pieces'),
      d('dragon_roll', 'Dragon Roll', 1399, 'Eel, avocado, cucumber'),
      d('miso_soup', 'Miso Soup', 349, 'Tofu, wakame, scallion'),
      d('edamame', 'Edamame', 399, 'Sea salt'),
    ],
  },
  {
    id: 'sushi_zone', name: 'Sushi Zone', cuisine: 'Japanese · Bowls', color: '#862e9c', initials: 'SZ', rating: 4.2,
    menu: [
      d('salmon_nigiri', 'Salmon Nigiri', 649, 'Two pieces'),
      d('tuna_poke_bowl', 'Tuna Poke Bowl', 1299, 'Tuna, rice, mango, sesame'),
      d('chicken_katsu', 'Chicken Katsu', 1149, 'With curry sauce'),
      d('green_tea_mochi', 'Green Tea Mochi', 499, 'Three pieces'),
    ],
  },
  {
    id: 'pizza_roma', name: 'Pizza Roma', cuisine: 'Italian · Pizza', color: '#2b8a3e', initials: 'PR', rating: 4.5,
    menu: [
      d('margherita_pizza', 'Margherita Pizza', 1099, 'Tomato, mozzarella, basil'),
      d('pepperoni_pizza', 'Pepperoni Pizza', 1299, 'Spicy pepperoni'),
      d('garlic_bread', 'Garlic Bread', 499, 'With herb butter'),
      d('tiramisu', 'Tiramisu', 649, 'Mascarpone, espresso'),
    ],
  },
  {
    id: 'taco_fiesta', name: 'Taco Fiesta', cuisine: 'Mexican · Tacos', color: '#f08c00', initials: 'TF', rating: 4.3,
    menu: [
      d('chicken_tacos', 'Chicken Tacos', 899, 'Three tacos, salsa verde'),
      d('beef_burrito', 'Beef Burrito', 1049, 'Rice, beans, cheese'),
      d('nachos_supreme', 'Nachos Supreme', 949, 'Guacamole, jalapeños'),
      d('churros', 'Churros', 449, 'Cinnamon sugar'),
    ],
  },
  {
    id: 'green_bowl', name: 'Green Bowl', cuisine: 'Salads · Healthy', color: '#5c940d', initials: 'GB', rating: 4.4,
    menu: [
      d('caesar_salad', 'Caesar Salad', 899, 'Romaine, parmesan, croutons'),
      d('quinoa_bowl', 'Quinoa Bowl', 1099, 'Roasted veg, tahini'),
      d('falafel_wrap', 'Falafel Wrap', 849, 'Hummus, pickled onion'),
      d('fresh_lemonade', 'Fresh Lemonade', 349, 'Mint and lime'),
    ],
  },
  {
    id: 'curry_house', name: 'Curry House', cuisine: 'Indian · Curry', color: '#a61e4d', initials: 'CH', rating: 4.7,
    menu: [
      d('butter_chicken', 'Butter Chicken', 1249, 'Creamy tomato sauce'),
      d('lamb_rogan_josh', 'Lamb Rogan Josh', 1399, 'Kashmiri chilli'),
      d('garlic_naan', 'Garlic Naan', 299, 'Fresh from the tandoor'),
      d('mango_lassi', 'Mango Lassi', 399, 'Yoghurt drink'),
    ],
  },
  {
    id: 'noodle_bar', name: 'Noodle Bar', cuisine: 'Asian · Noodles', color: '#1864ab', initials: 'NB', rating: 4.0,
    menu: [
      d('pad_thai', 'Pad Thai', 1049, 'Rice noodles, peanuts'),
      d('beef_pho', 'Beef Pho', 1149, 'Slow-cooked broth'),
      d('spring_rolls', 'Spring Rolls', 549, 'Four pieces'),
      d('thai_iced_tea', 'Thai Iced Tea', 399, 'Condensed milk'),
    ],
  },
  {
    id: 'the_waffle_spot', name: 'The Waffle Spot', cuisine: 'Desserts · Breakfast', color: '#845ef7', initials: 'WS', rating: 4.6,
    menu: [
      d('belgian_waffle', 'Belgian Waffle', 799, 'Berries and cream'),
      d('chicken_and_waffles', 'Chicken and Waffles', 1199, 'Maple syrup'),
      d('banana_pancakes', 'Banana Pancakes', 849, 'Three stacked'),
      d('hot_chocolate', 'Hot Chocolate', 399, 'With marshmallows'),
    ],
  },
];

/** Restaurant name → the dish names on its menu (what task generators must sample a `{dish}` from). */
export const menus: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  RESTAURANTS.map((r) => [r.name, r.menu.map((m) => m.name)]),
);

export const ADDRESSES = ['12 Baker Street', '221 Elm Road', '5 Harbour View', '48 Maple Avenue'] as const;
export const PAYMENTS = ['Cash', 'Card'] as const;
export type Payment = (typeof PAYMENTS)[number];
export const QUANTITIES = ['1', '2', '3'] as const;

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();
export const sameText = (a: string, b: string): boolean => norm(a) === norm(b);

export function restaurantById(id: string): Restaurant | undefined {
  return RESTAURANTS.find((r) => r.id === id);
}
export function restaurantByName(name: string): Restaurant | undefined {
  return RESTAURANTS.find((r) => sameText(r.name, name));
}
export function dishOf(restaurant: Restaurant, dishName: string): Dish | undefined {
  return restaurant.menu.find((m) => sameText(m.name, dishName));
}

/** True when the slot values can all be satisfied in the app (the dish is on that restaurant's menu, etc.). */
export function isSatisfiable(slots: Readonly<Record<string, string>>): boolean {
  const r = slots.restaurant === undefined ? undefined : restaurantByName(slots.restaurant);
  if (slots.restaurant !== undefined && !r) return false;
  if (slots.dish !== undefined && (!r || !dishOf(r, slots.dish))) return false;
  if (slots.quantity !== undefined && !(QUANTITIES as readonly string[]).includes(slots.quantity)) return false;
  if (slots.payment !== undefined && !PAYMENTS.some((p) => sameText(p, slots.payment ?? ''))) return false;
  return true;
}

export const formatPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
