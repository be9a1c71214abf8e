import { describe, expect, it } from 'vitest';
import { decide } from '../../models/reference/roles/policy.js';
import { commonWords, labelFit, labelParts, launcherApps, mentionsAlone, PEEK_BUDGET, readExplore, screenFit } from '../../models/reference/roles/policy-explore.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };

/** A home screen: clock, date, then rows of four icon labels. */
function launcher(labels: string[]): OcrLine[] {
  return [line('9:41', 180, 94, 60, 40), line('Monday, June 2', 130, 166), ...labels.map((l, i) => line(l, 20 + (i % 4) * 100, 300 + Math.floor(i / 4) * 115, 70, 18))];
}
const page = (title: string, rest: string[]): OcrLine[] => [line('9:41', 10, 6, 40, 16), line(title, 20, 44, 120, 24), ...rest.map((t, i) => line(t, 20, 110 + i * 64))];
const comingSoon = (title: string): OcrLine[] => [line('9:41', 10, 6, 40, 16), line(title, 160, 272, 90, 24), line('Coming soon', 140, 320, 120, 20)];

/** Runs the policy from the home screen: every `open` shows that app's first screen; stops at the first other action. */
function run(instruction: string, screens: Record<string, OcrLine[]>): { opened: string[]; last: ReturnType<typeof decide>; history: string[] } {
  const history: string[] = [];
  const opened: string[] = [];
  let cur = 'home';
  for (let i = 0; i < 20; i++) {
    const d = decide({ instruction, guidance: [], history, lines: screens[cur]!, screen, temperature: 0, random: mulberry32(1) });
    history.push(d.conclusion);
    if (d.action.action !== 'open') return { opened, last: d, history };
    cur = d.action.text;
    opened.push(cur);
  }
  throw new Error('no decision other than open in 20 steps');
}

// The Library app's first screen as OCR reads it (merged words included: "TheSongofAchilles").
const LIBRARY = page('Library', ['Catalog', 'My loans', 'Holds', 'Search title or author', 'ALL BOOKS', 'The Overstory', 'All copies out', 'Circe', 'Available', 'TheSongofAchilles', 'All copies out', 'Pachinko']);
const FOOD = page('Foodie', ['Search restaurants', 'Restaurants near you', 'Burger Place', 'Burgers - Fast food', 'Sushi Zen']);
const NOTES = page('Notes', ['Search notes', 'Meeting notes', 'Dinner plans', 'Shopping list']);
const MAIL = page('Inbox', ['Book club this month', 'We are reading Piranesi. Meeting at my place.', 'Travel Deals']);
const HOME = launcher(['Foodie', 'Notes', 'Mail', 'Library', 'Weather', 'Camera']);
const SCREENS = { home: HOME, Foodie: FOOD, Notes: NOTES, Mail: MAIL, Library: LIBRARY, Weather: comingSoon('Weather'), Camera: comingSoon('Camera') };

describe('reference policy: finding the app a request implies by looking inside the apps', () => {
  it('reads the launcher labels; apps known by a topic the request does not mention go last', () => {
    const apps = launcherApps(HOME, screen, 'Place a hold on The Song of Achilles for pickup at Riverside Branch');
    expect(apps).toEqual(['Library', 'Weather', 'Camera', 'Foodie', 'Notes', 'Mail']);
    // A request on one of those topics keeps that app in launcher order.
    expect(launcherApps(HOME, screen, 'Share my notes with Sam').slice(0, 2)).toEqual(['Notes', 'Library']);
  });

  it('ranks a brand label by everyday word knowledge when no request word is a word of it (WordNet: parcel is a package, a cinema shows films)', () => {
    const home = launcher(['Foodie', 'Notes', 'Weather', 'Camera', 'Library', 'BoxBird', 'CinemaGo', 'ParcelNest']);
    // (Invented brands: no app of the repository is called so.)
    expect(launcherApps(home, screen, 'Please track my package 1Z999AA10123456784', [], 'Please track my package 1Z999AA10123456784')[0]).toBe('ParcelNest');
    expect(launcherApps(home, screen, 'Get me two tickets for the 7 pm film tonight', [], 'Get me two tickets for the 7 pm film tonight')[0]).toBe('CinemaGo');
    // A word of a name ("Warby Parker", "CVS Pharmacy") is no evidence for a label; the label named on its own is.
    expect(commonWords('Move my Warby Parker delivery to Tuesday, June 17.')).toEqual(['move', 'delivery']);
    expect(mentionsAlone('Send it to CVS Pharmacy – Oak Ave', 'Pharmacy')).toBe(false);
    expect(mentionsAlone('Refill my inhaler in Pharmacy.', 'Pharmacy')).toBe(true);
    // (A capitalised word that starts the sentence is no part of the name: "Search Foodie for …".)
    expect(mentionsAlone('Search Foodie for Pizza Roma and open it.', 'Foodie')).toBe(true);
    expect(mentionsAlone('Order from Burger Foodie today.', 'Foodie')).toBe(false);
    // Nothing related: launcher order is kept.
    expect(launcherApps(home, screen, 'Xylo qwerty', [], 'Xylo qwerty').slice(0, 3)).toEqual(['Weather', 'Camera', 'Library']);
  });

  it('scores a first screen by the request words, its verb at half weight and its names', () => {
    const cue = { words: ['hold', 'song', 'achille', 'pickup', 'riverside', 'branch'], verbs: ['place'], names: ['The Song of Achilles', 'Riverside Branch'], request: '' };
    expect(screenFit(LIBRARY, cue)).toMatchObject({ score: 3, matched: ['hold', '"The Song of Achilles"'] });
    // "Burger Place" shares only the verb: half a point.
    expect(screenFit(FOOD, cue).score).toBe(0.5);
    expect(screenFit(comingSoon('Weather'), cue).score).toBe(0);
  });

  it('the Library case: opens Library to look, sees the book and a "Holds" tab, and goes on with the task there', () => {
    const r = run('Place a hold on The Song of Achilles for pickup at Riverside Branch.', SCREENS);
    expect(r.opened).toEqual(['Library']);
    expect(r.history[0]).toMatch(/\[apps Library\|Weather\|Camera\|Foodie\|Notes\|Mail\] \[peek Library\] \[goal 1\/6: explore\]$/);
    // The next step is the task's own, on the same screen: the book is listed, so it is tapped (no search).
    expect(r.last.action).toEqual({ action: 'click', coordinate: [100, 696] });
    expect(r.last.conclusion).toMatch(/\[seen Library=3\] \[chose Library\] Tapped "TheSongofAchilles"\. \[goal 3\/6 done\]$/);
    expect(readExplore(r.history).chosen).toBe('Library');
  });

  it('a weak fit is kept while the other unknown apps are read; the best one is then opened, the known ones never', () => {
    const r = run('Check out Educated for me.', SCREENS);
    // "My loans" is the verb's synonym (loan): half a point, not decisive; the two empty apps score nothing.
    expect(r.opened).toEqual(['Library', 'Weather', 'Camera', 'Library']);
    expect(r.history[3]).toMatch(/\[seen Camera=0\] \[chose Library\] \[goal 1\/5 done\]$/);
    // In the app: the thing is not listed, so it is searched for.
    expect(r.last.conclusion).toMatch(/Tapped the search field "Search title or author"\. \[goal 2\/5: focused\]$/);
    // Back on the home screen later, the chosen app is re-opened (the conclusions are the memory).
    const again = decide({ instruction: 'Check out Educated for me.', guidance: [], history: [...r.history, 'Tapped "Educated". [goal 3/5 done]'], lines: HOME, screen, temperature: 0, random: mulberry32(1) });
    expect(again.action).toEqual({ action: 'open', text: 'Library' });
  });

  it('an app it was not written for: a request that names nothing on the launcher finds the app by its first screen', () => {
    const home = launcher(['Pantry', 'Wallet', 'Camera']);
    const wallet = page('Wallet', ['Cards', 'Everyday Visa', '•••• 4821', 'Travel Mastercard', 'Recent activity']);
    const pantry = page('Pantry', ['Shopping list', 'Eggs', 'Milk']);
    const r = run('Freeze my Everyday Visa card.', { home, Pantry: pantry, Wallet: wallet, Camera: comingSoon('Camera') });
    // (Word knowledge ranks Wallet first — a card is kept in a wallet — so it is the first app looked into.)
    expect(r.opened).toEqual(['Wallet']);
    expect(r.last.conclusion).toMatch(/\[seen Wallet=[\d.]+\] \[chose Wallet\] Tapped "Everyday Visa"/);
  });

  it('fails when no app shares a word with the request, after reading each once', () => {
    const home = launcher(['Pantry', 'Camera', 'Music']);
    const r = run('Freeze my Everyday Visa card.', { home, Pantry: page('Pantry', ['Shopping list', 'Eggs']), Camera: comingSoon('Camera'), Music: comingSoon('Music') });
    expect(r.opened).toEqual(['Pantry', 'Camera', 'Music']);
    expect(r.last.action).toEqual({ action: 'terminate', status: 'failure' });
    expect(r.last.conclusion).toMatch(/no app fits the request/);
  });

  it('looks first into apps whose label shares a word with the request (camel-case parts, a shared start of 4 letters)', () => {
    expect(labelParts('GreenThumb')).toEqual(['green', 'thumb']);
    expect(labelParts('Pet-Care Pro')).toEqual(['pet', 'care', 'pro']);
    expect(labelFit('GreenThumb', ['water', 'thumbs'])).toBe(1);
    expect(labelFit('Sailing', ['sail'])).toBe(1);
    expect(labelFit('Camera', ['freeze', 'card'])).toBe(0);
    // A request word without its ending starts or ends a one-word label ("boating" → "Boatly", "EasyBoat").
    expect(labelFit('Boatly', ['boating'])).toBe(1);
    expect(labelFit('Easyboat', ['boats'])).toBe(1);
    expect(labelFit('Transit', ['transfer'])).toBe(0);
    const home = launcher(['Pantry', 'Camera', 'Music', 'GreenThumb']);
    // No label part is a request word; word knowledge still puts the plant app first (green, fern and water: plants).
    expect(launcherApps(home, screen, 'Water my Fern Trio every 3 days')).toEqual(['GreenThumb', 'Pantry', 'Camera', 'Music']);
    expect(launcherApps(home, screen, 'Xylo my Qwerty Trio every 3 days')).toEqual(['Pantry', 'Camera', 'Music', 'GreenThumb']);
    expect(launcherApps(home, screen, 'Give my plants a green light', ['thumb'])[0]).toBe('GreenThumb');
  });

  it('words of the context count half a point and decide nothing alone; after a budget of looks the best fit is taken', () => {
    const cue = { words: ['reload'], verbs: [], names: [], request: 'Reload it with $50', context: ['ferry', 'pass'] };
    const ferry = page('Harbor Ferry', ['Routes', 'Ferry times', 'My pass']);
    expect(screenFit(ferry, cue)).toMatchObject({ score: 1, matched: ['(ferry)', '(pass)'] });
    // A context-only fit is not decisive: the other apps are looked into, up to the budget, then the best is opened.
    const labels = ['Alpha', 'Bravo', 'Charlie', 'Ferry', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel'];
    const screens: Record<string, OcrLine[]> = { home: launcher(labels) };
    for (const l of labels) screens[l] = l === 'Ferry' ? ferry : comingSoon(l);
    const r = run('My ferry pass keeps running out. Reload it with $50 automatically.', screens);
    expect(r.opened[0]).toBe('Ferry');
    expect(r.opened.length).toBe(PEEK_BUDGET + 1);
    expect(r.opened[r.opened.length - 1]).toBe('Ferry');
  });

  it('an app the request seemed to name that the launcher does not show ("on Friday") is looked for inside the apps', () => {
    const home = launcher(['Pantry', 'Camera', 'Studio']);
    const studio = page('Studio', ['Classes', 'Spin 45', 'Friday 7:00', 'Book']);
    const r = run('Book me into Spin 45 in Riverside.', { home, Pantry: page('Pantry', ['Shopping list', 'Eggs']), Camera: comingSoon('Camera'), Studio: studio });
    // (The request's "in Riverside" reads like an app name; no launcher label says it.)
    expect(r.opened[0]).not.toBe('Riverside');
    expect(r.opened).toContain('Studio');
  });
});

describe('apps that fit alike', () => {
  it('the screen about the word (several lines say it) ranks above one line that happens to carry it', () => {
    const l = (text: string, y: number): OcrLine => ({ text, box: { x: 20, y, w: 200, h: 20 }, confidence: 0.99 });
    const cue = { words: ['lantern', 'express'], verbs: [], names: [], request: 'Cancel my Lantern Express class' };
    const about = screenFit([l('Find a lantern', 200), l('My lanterns', 300), l('6 lantern credits left', 400)], cue);
    const once = screenFit([l('Harbor Express', 200), l('Blue Line', 300)], cue);
    expect(about.score).toBeGreaterThan(once.score);
    expect(about.score).toBeLessThan(1.9);
  });
});
