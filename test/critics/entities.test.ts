import { describe, expect, it } from 'vitest';
import { instructionEntities } from '../../models/reference/roles/critics.js';

describe('reference critics: instruction entities', () => {
  it('drops sentence-initial imperatives such as "Use", keeping names and numbers', () => {
    expect(instructionEntities('Use the search in Foodie to find Sushi Zone and open it.')).toEqual(['Foodie', 'Sushi Zone']);
    expect(instructionEntities('Order 2 Sweet Potato Fries from Burger Palace on Foodie.')).toEqual([
      '2',
      'Sweet Potato Fries',
      'Burger Palace',
      'Foodie',
    ]);
  });
});
