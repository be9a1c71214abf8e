import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { usePhone } from './phone-driver.js';
import { addDays, AVAILABLE_TITLES, initialLibraryState, LOAN_TITLES, ON_LOAN_TITLES } from '../../environments/apps/library/state.js';

const { step, tap, exact, spec, check, open } = usePhone('library', 'Library');

describe('Library app (added after the reference policy was frozen)', () => {
  it('is registered with a DAG whose task families all have checkers, and its slot values name real things', () => {
    const app = getApp('library');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialLibraryState(3);
    for (const t of [...AVAILABLE_TITLES, ...ON_LOAN_TITLES, ...LOAN_TITLES]) expect(st.books.some((b) => b.title === t)).toBe(true);
    expect(AVAILABLE_TITLES.some((t) => LOAN_TITLES.includes(t))).toBe(false);
    expect(addDays('Jun 20', 14)).toBe('Jul 4');
    expect(() => checkApp(st, spec('borrow_book', { book: 'No Such Book' }))).toThrow(/unknown book/);
    expect(() => checkApp(st, spec('place_hold', { title: 'Becoming' }))).toThrow(/missing param "branch"/);
  });

  it('borrows through the confirmation dialog; the near-duplicate is a failure', async () => {
    const s = await open();
    await tap(s, exact(s, '.row .t', 'Dune Messiah'));
    await tap(s, s.page.getByRole('button', { name: 'Borrow' }).first());
    expect(await check(s, spec('borrow_book', { book: 'Dune Messiah' }))).toBe(false);
    await tap(s, s.page.locator('#borrow-ok'));
    expect(await s.page.getByText('Checked out (5)').isVisible()).toBe(true);
    expect(await check(s, spec('borrow_book', { book: 'Dune Messiah' }))).toBe(true);
    expect(await check(s, spec('borrow_book', { book: 'Dune' }))).toBe(false);
    await s.close();
  }, 60_000);

  it('renews one loan (returning it instead fails) and places a hold at the chosen branch', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.tabs a', 'My loans'));
    await tap(s, exact(s, '.row .t', 'The Overstory'));
    await tap(s, exact(s, 'button', 'Renew'));
    expect(await s.page.getByText('Renewed until Jun 20').isVisible()).toBe(true);
    expect(await check(s, spec('renew_loan', { loan: 'The Overstory' }))).toBe(true);
    expect(await check(s, spec('renew_loan', { loan: 'Piranesi' }))).toBe(false);

    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.tabs a', 'Catalog'));
    await tap(s, exact(s, '.row .t', 'Becoming'));
    await tap(s, exact(s, 'a', 'Place hold'));
    await tap(s, s.page.locator('.pick'));
    await tap(s, exact(s, '#branch .opt', 'Riverside Branch'));
    await tap(s, exact(s, 'button', 'Confirm hold'));
    expect(await s.page.getByText('Pickup at Riverside Branch').isVisible()).toBe(true);
    expect(await check(s, spec('place_hold', { title: 'Becoming', branch: 'Riverside Branch' }))).toBe(true);
    expect(await check(s, spec('place_hold', { title: 'Becoming', branch: 'Central Library' }))).toBe(false);
    await s.close();
  }, 60_000);
});
