import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { directApp, usePhone } from './phone-driver.js';
import { artistName, episodesOf, findSong, initialTunesState, SLEEP_OPTIONS, type TunesState } from '../../environments/apps/tunes/state.js';

const { step, tap, spec, check, open } = usePhone('tunes', 'Sonquil');

const state = async (s: ChromiumSession): Promise<TunesState> => (await s.checkerState()).tunes as TunesState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const row = (s: ChromiumSession, title: string, artist: string) => s.page.locator(`.srow[data-song="${title}"][data-artist="${artist}"]`).first();
const more = (s: ChromiumSession, title: string, artist: string) => row(s, title, artist).locator('.more');
const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
const idOf = (st: TunesState, title: string, artist: string): number => findSong(st, title, artist)!.id;
const listId = (st: TunesState, name: string): number => st.playlists.find((p) => p.name === name)!.id;

/** The app driven through its request handler, no browser. */
const direct = (seed: number) => directApp<TunesState>('tunes', seed);

/** Opens the Search tab, types `text` and taps Search. */
async function search(s: ChromiumSession, text: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Search"]'));
  await tap(s, s.page.locator('#q'));
  await step(s, { action: 'type', text });
  await tap(s, s.page.locator('#go'));
}

describe('Sonquil music and podcast app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered after Wheelnook with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('tunes');
    expect(app?.title).toBe('Sonquil');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'tunes')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'carshare'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialTunesState(3);
    expect(st).toEqual(initialTunesState(3));
    expect(initialTunesState(3)).not.toEqual(initialTunesState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialTunesState(seed);
      // Songs: every title exists, with exactly the artists offered for it; a playlist is offered only when it has no song of that title.
      const artists = slot('search', 'artist')?.dependsOn?.values ?? {};
      const lists = slot('add_to_playlist', 'playlist')?.dependsOn?.values ?? {};
      for (const title of slot('search', 'song')?.values ?? []) {
        const songs = s.songs.filter((x) => x.title === title);
        expect(songs.length, title).toBeGreaterThan(0);
        expect([...(artists[title] ?? [])].sort(), title).toEqual(songs.map((x) => artistName(s, x)).sort());
        const free = s.playlists.filter((p) => p.mine && !p.songIds.some((id) => songs.some((x) => x.id === id))).map((p) => p.name);
        expect(lists[title], title).toEqual(free);
        expect(free.length, title).toBeGreaterThan(0);
      }
      expect(slot('add_to_playlist', 'playlist')?.values).toEqual(s.playlists.filter((p) => p.mine).map((p) => p.name));
      // Podcasts: the ones not followed yet, each with the episodes offered not downloaded yet.
      expect([...(slot('search', 'podcast')?.values ?? [])].sort()).toEqual(s.podcasts.filter((p) => !p.followed).map((p) => p.title).sort());
      const eps = slot('podcast', 'episode')?.dependsOn?.values ?? {};
      for (const p of s.podcasts.filter((x) => !x.followed)) {
        expect(eps[p.title]?.length, p.title).toBeGreaterThanOrEqual(4);
        for (const e of eps[p.title] ?? []) expect(episodesOf(s, p.id).find((x) => x.title === e)?.downloaded, `${p.title}: ${e}`).toBe(false);
      }
    }
    for (const n of slot('new_playlist', 'new_playlist')?.values ?? []) expect(st.playlists.some((p) => sameText(p.name, n)), n).toBe(false);
    for (const v of slot('sleep_timer', 'sleep_after')?.values ?? []) expect(SLEEP_OPTIONS.some((x) => sameText(x, v)), v).toBe(true);
    const cp = { new_playlist: 'Beach Day', song: 'Golden Hour', artist: 'Juniper Vale' };
    const ap = { song: 'Midnight Train', artist: 'Juniper Vale', playlist: 'Road Trip' };
    const fp = { podcast: 'Kitchen Table Stories', episode: 'Sourdough and Second Chances' };
    const tp = { song: 'Northern Light', artist: 'Hazel & the Harbor', sleep_after: '30 minutes' };
    expect(() => checkApp(st, spec('create_playlist', { ...cp, artist: 'Nova Reyes' }))).toThrow(/unknown song "Golden Hour" by "Nova Reyes"/);
    expect(() => checkApp(st, spec('create_playlist', { ...cp, new_playlist: 'road trip' }))).toThrow(/already a playlist called "Road Trip"/);
    expect(() => checkApp(st, spec('create_playlist', { song: 'Golden Hour', artist: 'Juniper Vale' }))).toThrow(/missing param "new_playlist"/);
    expect(() => checkApp(st, spec('add_to_playlist', { ...ap, playlist: 'Daily Mix 1' }))).toThrow(/unknown playlist/);
    expect(() => checkApp(st, spec('add_to_playlist', { ...ap, artist: 'The Copper Lanterns', playlist: 'Road Trip Classics' }))).toThrow(/already in "Road Trip Classics"/);
    expect(() => checkApp(st, spec('follow_podcast_download', { ...fp, podcast: 'Kitchen Table Talks' }))).toThrow(/unknown podcast/);
    expect(() => checkApp(st, spec('follow_podcast_download', { ...fp, episode: 'Moons of Saturn' }))).toThrow(/unknown episode/);
    expect(() => checkApp(st, spec('sleep_timer', { ...tp, sleep_after: 'End of track' }))).toThrow(/unknown sleep_after/);
    expect(() => checkApp(st, spec('sleep_timer', { ...tp, sleep_after: '20 minutes' }))).toThrow(/unknown sleep_after/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('create_playlist', cp))).toEqual({ success: false, reason: 'no playlist was created' });
    expect(checkApp(st, spec('add_to_playlist', ap))).toEqual({ success: false, reason: '"Midnight Train" by Juniper Vale was not added to "Road Trip"' });
    expect(checkApp(st, spec('follow_podcast_download', fp))).toEqual({ success: false, reason: '"Kitchen Table Stories" is not followed and "Sourdough and Second Chances" is not downloaded' });
    expect(checkApp(st, spec('sleep_timer', tp))).toEqual({ success: false, reason: 'an episode ("Knife Skills 101") is loaded, expected "Northern Light" by Hazel & the Harbor to be playing' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates.length).toBeGreaterThanOrEqual(3);
      expect(task.templates[0]).toContain('Sonquil');
      expect(task.templates.filter((t) => t.includes('Sonquil')).length).toBeGreaterThanOrEqual(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      const used = (t: string): string[] => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
      for (const t of task.templates) for (const k of used(t)) expect(keys.has(k), `${task.id}: {${k}}`).toBe(true);
      for (const t of task.templates) expect([...new Set(used(t))], t).toEqual([...new Set(used(task.templates[0]!))]);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['tunes'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialTunesState(1), q.checker).success).toBe(false);
    }
  });

  it('drives every family to success through its request handler, and a near-duplicate or a missing step fails', () => {
    // Search: both songs called Midnight Train, and the order of songs changes between sessions.
    const a = direct(5);
    expect(a.page('/')).toContain('Made for you');
    const order = (html: string): string[] => [...html.matchAll(/data-song="([^"]+)" data-artist="([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(order(a.page('/search?q=midnight+train')).sort()).toEqual(['Midnight Train/Juniper Vale', 'Midnight Train/The Copper Lanterns']);
    expect(order(a.page('/search?q=golden+hour')).sort()).toEqual(['Golden Hour/Juniper Vale', 'Golden Hours/Nova Reyes']);
    const orders = new Set([1, 2, 3, 4, 5, 6].map((seed) => order(direct(seed).page('/search?q=slow')).join()));
    expect(orders.size).toBeGreaterThan(1);
    expect(a.page('/search?q=zzzz')).toContain('No results found');

    // Create a playlist: a name is required and must be new; it is made with the song in it.
    const gh = idOf(a.st, 'Golden Hour', 'Juniper Vale');
    expect(a.page(`/song/${gh}/add?back=%2Fsearch%3Fq%3Dgolden`)).toContain('Your playlists');
    expect(a.api('create', { name: '  ', song: gh })).toEqual({ ok: false, error: 'Give your playlist a name' });
    expect(a.api('create', { name: 'road trip', song: gh })).toEqual({ ok: false, error: 'You already have a playlist called Road Trip' });
    const cp = { new_playlist: 'Beach Day', song: 'Golden Hour', artist: 'Juniper Vale' };
    const made = a.api('create', { name: ' Beach  Day ', song: idOf(a.st, 'Golden Hours', 'Nova Reyes') });
    expect(made).toEqual({ ok: true, id: 401 });
    expect(a.page('/playlist/401')).toContain('Added to Beach Day');
    expect(a.run('create_playlist', cp).reason).toBe('"Beach Day" has "Golden Hours" by Nova Reyes, expected "Golden Hour" by Juniper Vale');
    expect(a.api('add', { song: gh, playlist: 401 })).toEqual({ ok: true });
    expect(a.run('create_playlist', cp).reason).toBe('"Beach Day" has "Golden Hours" by Nova Reyes, "Golden Hour" by Juniper Vale, expected only "Golden Hour" by Juniper Vale');
    expect(a.api('remove', { playlist: 401, song: idOf(a.st, 'Golden Hours', 'Nova Reyes'), idx: 0 })).toEqual({ ok: true });
    expect(a.run('create_playlist', cp)).toEqual({ success: true, reason: 'created the playlist "Beach Day" with "Golden Hour" by Juniper Vale' });
    expect(a.run('create_playlist', { ...cp, new_playlist: 'Gym Hits' }).reason).toBe('the new playlist is called "Beach Day", expected "Gym Hits"');

    // Add to a playlist: only own playlists; one that has the song asks first.
    const b = direct(6);
    const mtJ = idOf(b.st, 'Midnight Train', 'Juniper Vale');
    const mtC = idOf(b.st, 'Midnight Train', 'The Copper Lanterns');
    expect(b.api('add', { song: mtJ, playlist: listId(b.st, 'Daily Mix 1') })).toEqual({ ok: false, error: 'You can only add songs to your own playlists' });
    expect(b.api('add', { song: mtC, playlist: listId(b.st, 'Road Trip Classics') })).toEqual({ ok: false, dup: true, error: 'Already in Road Trip Classics' });
    expect(b.api('add', { song: mtC, playlist: listId(b.st, 'Road Trip') })).toEqual({ ok: true });
    const ap = { song: 'Midnight Train', artist: 'Juniper Vale', playlist: 'Road Trip' };
    expect(b.run('add_to_playlist', ap).reason).toBe('"Midnight Train" by The Copper Lanterns was added to "Road Trip", expected "Midnight Train" by Juniper Vale');
    expect(b.api('add', { song: mtJ, playlist: listId(b.st, 'Road Trip') })).toEqual({ ok: true });
    expect(b.run('add_to_playlist', ap).reason).toBe('"Midnight Train" by Juniper Vale was added to "Road Trip" but "Midnight Train" by The Copper Lanterns too');
    const rt = b.st.playlists.find((p) => p.name === 'Road Trip')!;
    expect(b.api('remove', { playlist: rt.id, song: mtC, idx: rt.songIds.indexOf(mtC) })).toEqual({ ok: true });
    expect(b.run('add_to_playlist', ap)).toEqual({ success: true, reason: 'added "Midnight Train" by Juniper Vale to "Road Trip"' });
    expect(b.run('add_to_playlist', { ...ap, playlist: 'Road Trip Classics' }).reason).toBe('"Midnight Train" by Juniper Vale was added to "Road Trip", expected "Road Trip Classics"');

    // Follow and download: both are needed, and the near-duplicate episode fails.
    const c = direct(7);
    const kts = c.st.podcasts.find((p) => p.title === 'Kitchen Table Stories')!;
    const ep = (t: string) => c.st.episodes.find((e) => e.title === t)!;
    expect(c.page(`/podcast/${kts.id}`)).toContain('Sourdough and Second Chances, Part 2');
    const fp = { podcast: 'Kitchen Table Stories', episode: 'Sourdough and Second Chances' };
    expect(c.api('download', { episode: ep('Sourdough and Second Chances, Part 2').id, on: true })).toEqual({ ok: true, downloaded: true });
    expect(c.run('follow_podcast_download', fp).reason).toBe(
      '"Kitchen Table Stories" is not followed and "Sourdough and Second Chances" is not downloaded (downloaded "Sourdough and Second Chances, Part 2" instead)',
    );
    expect(c.api('download', { episode: ep('Sourdough and Second Chances, Part 2').id, on: false })).toEqual({ ok: true, downloaded: false });
    expect(c.api('download', { episode: ep('Sourdough and Second Chances').id, on: true })).toEqual({ ok: true, downloaded: true });
    expect(c.run('follow_podcast_download', fp).reason).toBe('"Sourdough and Second Chances" was downloaded but "Kitchen Table Stories" is not followed');
    expect(c.api('follow', { podcast: kts.id })).toEqual({ ok: true, followed: true });
    expect(c.run('follow_podcast_download', fp)).toEqual({ success: true, reason: 'followed "Kitchen Table Stories" and downloaded episode 46, "Sourdough and Second Chances"' });
    expect(c.page('/downloads')).toContain('Sourdough and Second Chances');
    expect(c.page('/library?f=podcasts')).toContain('Kitchen Table Stories');

    // Sleep timer: the song must be the one loaded and playing.
    const d = direct(8);
    const nl = idOf(d.st, 'Northern Light', 'Hazel & the Harbor');
    const tp = { song: 'Northern Light', artist: 'Hazel & the Harbor', sleep_after: '30 minutes' };
    expect(d.api('timer', { v: '20 minutes' })).toEqual({ ok: false, error: 'Pick a time' });
    expect(d.api('timer', { v: '30 minutes' })).toEqual({ ok: true, text: 'Sleep timer on · stops in 30 minutes' });
    expect((d.api('play', { kind: 'song', id: idOf(d.st, 'Northern Lights', 'Marlo Quinn') }) as { mini: string }).mini).toContain('Northern Lights');
    expect(d.run('sleep_timer', tp).reason).toBe('"Northern Lights" by Marlo Quinn is playing, expected "Northern Light" by Hazel & the Harbor');
    expect(d.api('play', { kind: 'song', id: nl, ctx: 'album:106' }).ok).toBe(true);
    expect(d.page('/now')).toContain('Sleep timer on · stops in 30 minutes');
    expect(d.run('sleep_timer', tp)).toEqual({ success: true, reason: '"Northern Light" by Hazel & the Harbor is playing, sleep timer 30 minutes' });
    expect(d.run('sleep_timer', { ...tp, sleep_after: '1 hour' }).reason).toBe('the sleep timer is set to 30 minutes, expected 1 hour');
    expect(d.api('toggle', {})).toMatchObject({ ok: true, playing: false });
    expect(d.run('sleep_timer', tp).reason).toBe('"Northern Light" by Hazel & the Harbor is paused, expected it to be playing');
  });

  it('shows every launcher icon without scrolling and opens from its icon', async () => {
    const s = await open(1);
    await step(s, { action: 'system_button', button: 'Home' });
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    const icons = s.page.locator('a.app');
    expect(await icons.count()).toBe(BUILT_IN_APPS.length + DECORATIVE_APPS.length);
    const { vw, vh, sh } = (await s.page.evaluate('({vw:innerWidth,vh:innerHeight,sh:document.documentElement.scrollHeight})')) as { vw: number; vh: number; sh: number };
    expect(sh).toBeLessThanOrEqual(vh);
    for (let i = 0; i < (await icons.count()); i++) {
      const box = await icons.nth(i).boundingBox();
      expect(box, `icon ${i}`).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(28);
      expect(box!.y + box!.height, (await icons.nth(i).getAttribute('aria-label')) ?? `icon ${i}`).toBeLessThanOrEqual(vh);
      expect(box!.x + box!.width).toBeLessThanOrEqual(vw);
    }
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Sonquil"]')) });
    expect(await visible(s, 'Made for you')).toBe(true);
    await s.close();
  }, 60_000);

  it('creates a playlist with a song from its menu; the near-duplicate song, another name, a second playlist or a like fails', async () => {
    const s = await open(1);
    await search(s, 'golden hour');
    expect(await visible(s, 'Results for “golden hour”')).toBe(true);
    // The near-duplicate first: a new playlist with Golden Hours by Nova Reyes.
    await tap(s, more(s, 'Golden Hours', 'Nova Reyes'));
    expect(await visible(s, 'Golden Hours · Nova Reyes')).toBe(true);
    await tap(s, s.page.locator('#m-add'));
    expect(await visible(s, 'Your playlists')).toBe(true);
    await tap(s, s.page.locator('#new-pl'));
    expect(await visible(s, 'Name your playlist')).toBe(true);
    await tap(s, s.page.locator('#create'));
    expect(await s.page.locator('#nerr').textContent()).toBe('Give your playlist a name');
    await tap(s, s.page.locator('#plname'));
    await step(s, { action: 'type', text: 'Road Trip' });
    await tap(s, s.page.locator('#create'));
    expect(await s.page.locator('#nerr').textContent()).toBe('You already have a playlist called Road Trip');
    await s.page.locator('#plname').fill('');
    await tap(s, s.page.locator('#plname'));
    await step(s, { action: 'type', text: 'Beach Day' });
    const cp = { new_playlist: 'Beach Day', song: 'Golden Hour', artist: 'Juniper Vale' };
    expect(await reason(s, 'create_playlist', cp)).toBe('no playlist was created');
    await tap(s, s.page.locator('#create'));
    expect(await visible(s, 'Playlist by Maya Lindqvist')).toBe(true);
    expect(await s.page.locator('#pl-name').textContent()).toBe('Beach Day');
    expect(await reason(s, 'create_playlist', cp)).toBe('"Beach Day" has "Golden Hours" by Nova Reyes, expected "Golden Hour" by Juniper Vale');
    // Take it out again, then add the right song to the new playlist from the search results.
    await tap(s, more(s, 'Golden Hours', 'Nova Reyes'));
    await tap(s, s.page.locator('#m-remove'));
    expect(await visible(s, 'Removed from Beach Day')).toBe(true);
    expect(await reason(s, 'create_playlist', cp)).toBe('"Beach Day" was created but has no songs, expected "Golden Hour" by Juniper Vale');
    await search(s, 'golden');
    await tap(s, more(s, 'Golden Hour', 'Juniper Vale'));
    await tap(s, s.page.locator('#m-add'));
    await tap(s, s.page.locator('button.lrow[data-playlist="Beach Day"]'));
    expect(await visible(s, 'Added to Beach Day')).toBe(true);
    expect(await visible(s, 'Results for “golden”')).toBe(true);
    expect(await reason(s, 'create_playlist', cp)).toBe('created the playlist "Beach Day" with "Golden Hour" by Juniper Vale');
    expect(await check(s, spec('create_playlist', { ...cp, new_playlist: 'beach day', artist: 'juniper vale' }))).toBe(true);
    expect(await reason(s, 'create_playlist', { ...cp, new_playlist: 'Gym Hits' })).toBe('the new playlist is called "Beach Day", expected "Gym Hits"');
    // Liking a song on the way fails the task.
    await tap(s, more(s, 'Golden Hour', 'Juniper Vale'));
    await tap(s, s.page.locator('#m-like'));
    expect(await visible(s, 'Added to Liked Songs')).toBe(true);
    expect(await reason(s, 'create_playlist', cp)).toBe('"Beach Day" was created with "Golden Hour" by Juniper Vale but "Golden Hour" by Juniper Vale was liked');
    // A second new playlist (from Your Library) fails it too.
    await tap(s, s.page.locator('.bnav a[aria-label="Your Library"]'));
    await tap(s, s.page.locator('button[aria-label="Create playlist"]'));
    await tap(s, s.page.locator('#plname'));
    await step(s, { action: 'type', text: 'Gym Hits' });
    await tap(s, s.page.locator('#create'));
    expect(await s.page.locator('#pl-name').textContent()).toBe('Gym Hits');
    expect(await visible(s, 'Add songs')).toBe(true);
    expect(await reason(s, 'create_playlist', cp)).toBe('2 playlists were created ("Beach Day", "Gym Hits"), expected one');
    await s.close();
  }, 120_000);

  it('adds a song by the named artist to an existing playlist; the other artist\'s song of the same title, another playlist or a second add fails', async () => {
    const s = await open(2);
    await search(s, 'midnight train');
    expect(await row(s, 'Midnight Train', 'Juniper Vale').isVisible()).toBe(true);
    expect(await row(s, 'Midnight Train', 'The Copper Lanterns').isVisible()).toBe(true);
    const ap = { song: 'Midnight Train', artist: 'Juniper Vale', playlist: 'Road Trip' };
    // The other Midnight Train is already on Road Trip Classics: adding it there asks first.
    await tap(s, more(s, 'Midnight Train', 'The Copper Lanterns'));
    await tap(s, s.page.locator('#m-add'));
    await tap(s, s.page.locator('button.lrow[data-playlist="Road Trip Classics"]'));
    expect(await visible(s, 'Already added')).toBe(true);
    await tap(s, s.page.locator('#dup-no'));
    expect(await reason(s, 'add_to_playlist', ap)).toBe('"Midnight Train" by Juniper Vale was not added to "Road Trip"');
    // The wrong artist's song on the right playlist.
    await tap(s, s.page.locator('button.lrow[data-playlist="Road Trip"]'));
    expect(await visible(s, 'Added to Road Trip')).toBe(true);
    expect(await reason(s, 'add_to_playlist', ap)).toBe('"Midnight Train" by The Copper Lanterns was added to "Road Trip", expected "Midnight Train" by Juniper Vale');
    // Take it off Road Trip (from Your Library), then add the right one.
    await tap(s, s.page.locator('.bnav a[aria-label="Your Library"]'));
    await tap(s, s.page.locator('a.lrow[data-playlist="Road Trip"]'));
    await tap(s, more(s, 'Midnight Train', 'The Copper Lanterns'));
    await tap(s, s.page.locator('#m-remove'));
    expect(await visible(s, 'Removed from Road Trip')).toBe(true);
    await search(s, 'midnight train');
    await tap(s, more(s, 'Midnight Train', 'Juniper Vale'));
    await tap(s, s.page.locator('#m-add'));
    expect(await s.page.locator('button.lrow[data-playlist="Road Trip"] .tag').count()).toBe(0);
    await tap(s, s.page.locator('button.lrow[data-playlist="Road Trip"]'));
    expect(await visible(s, 'Added to Road Trip')).toBe(true);
    expect(await reason(s, 'add_to_playlist', ap)).toBe('added "Midnight Train" by Juniper Vale to "Road Trip"');
    expect(await check(s, spec('add_to_playlist', { ...ap, playlist: 'road trip' }))).toBe(true);
    expect(await reason(s, 'add_to_playlist', { ...ap, playlist: 'Road Trip Classics' })).toBe('"Midnight Train" by Juniper Vale was added to "Road Trip", expected "Road Trip Classics"');
    expect(await reason(s, 'add_to_playlist', { ...ap, playlist: 'Morning Run' })).toBe('"Midnight Train" by Juniper Vale was added to "Road Trip", expected "Morning Run"');
    // Adding it to another playlist too fails the task.
    await tap(s, more(s, 'Midnight Train', 'Juniper Vale'));
    await tap(s, s.page.locator('#m-add'));
    await tap(s, s.page.locator('button.lrow[data-playlist="Morning Run"]'));
    expect(await visible(s, 'Added to Morning Run')).toBe(true);
    expect(await reason(s, 'add_to_playlist', ap)).toBe('"Midnight Train" by Juniper Vale was added to "Road Trip" but "Midnight Train" by Juniper Vale was added to "Morning Run"');
    await s.close();
  }, 120_000);

  it('follows a podcast and downloads one episode; the near-duplicate episode, a missing follow or another unfollow fails', async () => {
    const s = await open(3);
    await search(s, 'kitchen table');
    expect(await visible(s, 'Kitchen Table Talks')).toBe(true);
    await tap(s, s.page.locator('a.lrow[data-podcast="Kitchen Table Stories"]'));
    expect(await visible(s, 'Episodes')).toBe(true);
    expect(await s.page.locator('#follow-btn').textContent()).toBe('Follow');
    const fp = { podcast: 'Kitchen Table Stories', episode: 'Sourdough and Second Chances' };
    // The near-duplicate episode, downloaded from its page, without following.
    await tap(s, s.page.locator('.erow[data-episode="Sourdough and Second Chances, Part 2"] a.ei'));
    expect(await visible(s, 'About this episode')).toBe(true);
    await tap(s, s.page.locator('#ep-dl'));
    expect(await s.page.locator('#ep-dl').textContent()).toBe('✓ Downloaded');
    expect(await reason(s, 'follow_podcast_download', fp)).toBe(
      '"Kitchen Table Stories" is not followed and "Sourdough and Second Chances" is not downloaded (downloaded "Sourdough and Second Chances, Part 2" instead)',
    );
    // Remove that download (it asks first), then follow the show and download the right episode from its row.
    await tap(s, s.page.locator('#ep-dl'));
    expect(await visible(s, 'Remove this download?')).toBe(true);
    await tap(s, s.page.locator('#undl-ok'));
    expect(await s.page.locator('#ep-dl').textContent()).toBe('↧ Download');
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('#follow-btn'));
    expect(await s.page.locator('#follow-btn').textContent()).toBe('Following');
    expect(await reason(s, 'follow_podcast_download', fp)).toBe('"Kitchen Table Stories" is followed but "Sourdough and Second Chances" is not downloaded');
    await tap(s, s.page.locator('.erow[data-episode="Sourdough and Second Chances"] button.dl'));
    expect(await s.page.locator('.erow[data-episode="Sourdough and Second Chances"] button.dl').textContent()).toBe('✓ Downloaded');
    expect(await reason(s, 'follow_podcast_download', fp)).toBe('followed "Kitchen Table Stories" and downloaded episode 46, "Sourdough and Second Chances"');
    expect(await check(s, spec('follow_podcast_download', { podcast: 'kitchen table stories', episode: 'sourdough and second chances' }))).toBe(true);
    expect(await reason(s, 'follow_podcast_download', { ...fp, episode: 'Sourdough and Second Chances, Part 2' })).toBe(
      '"Kitchen Table Stories" is followed but "Sourdough and Second Chances, Part 2" is not downloaded (downloaded "Sourdough and Second Chances" instead)',
    );
    // Unfollowing the near-duplicate show that was followed fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Your Library"]'));
    await tap(s, s.page.locator('a.lrow[data-podcast="Kitchen Table Talks"]'));
    await tap(s, s.page.locator('#follow-btn'));
    expect(await s.page.locator('#follow-btn').textContent()).toBe('Follow');
    expect(await reason(s, 'follow_podcast_download', fp)).toBe('followed "Kitchen Table Stories" and downloaded "Sourdough and Second Chances" but "Kitchen Table Talks" was unfollowed');
    await s.close();
  }, 120_000);

  it('plays a song and sets the sleep timer from Now playing; the near-duplicate song, another time, a paused song or a like fails', async () => {
    const s = await open(4);
    await search(s, 'northern light');
    const tp = { song: 'Northern Light', artist: 'Hazel & the Harbor', sleep_after: '30 minutes' };
    // The near-duplicate plays first.
    await tap(s, row(s, 'Northern Lights', 'Marlo Quinn').locator('.sp'));
    expect(await s.page.locator('#mini .t').textContent()).toBe('Northern Lights');
    await tap(s, s.page.locator('#mini a.mi'));
    expect(await s.page.locator('#np-title').textContent()).toBe('Northern Lights');
    await tap(s, s.page.locator('#timer-btn'));
    expect(await visible(s, 'Stop audio in')).toBe(true);
    await tap(s, s.page.locator('#timer-opts .opt[data-v="30 minutes"]'));
    expect(await s.page.locator('#timer-on').textContent()).toBe('Sleep timer on · stops in 30 minutes');
    expect(await reason(s, 'sleep_timer', tp)).toBe('"Northern Lights" by Marlo Quinn is playing, expected "Northern Light" by Hazel & the Harbor');
    // Back to the results, play the right song; the timer stays set.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, row(s, 'Northern Light', 'Hazel & the Harbor').locator('.sp'));
    expect(await s.page.locator('#mini .t').textContent()).toBe('Northern Light');
    expect(await reason(s, 'sleep_timer', tp)).toBe('"Northern Light" by Hazel & the Harbor is playing, sleep timer 30 minutes');
    await tap(s, s.page.locator('#mini a.mi'));
    expect(await visible(s, 'Sleep timer on · stops in 30 minutes')).toBe(true);
    await tap(s, s.page.locator('#timer-btn'));
    await tap(s, s.page.locator('#timer-opts .opt[data-v="45 minutes"]'));
    expect(await reason(s, 'sleep_timer', { ...tp, sleep_after: '45 minutes' })).toBe('"Northern Light" by Hazel & the Harbor is playing, sleep timer 45 minutes');
    expect(await reason(s, 'sleep_timer', tp)).toBe('the sleep timer is set to 45 minutes, expected 30 minutes');
    expect(await check(s, spec('sleep_timer', { song: 'northern light', artist: 'hazel & the harbor', sleep_after: '45 MINUTES' }))).toBe(true);
    // Paused, it fails; playing again, a like on the way fails it too.
    await tap(s, s.page.locator('#pp'));
    expect(await s.page.locator('#pp').getAttribute('aria-label')).toBe('Play');
    expect(await reason(s, 'sleep_timer', { ...tp, sleep_after: '45 minutes' })).toBe('"Northern Light" by Hazel & the Harbor is paused, expected it to be playing');
    await tap(s, s.page.locator('#pp'));
    await tap(s, s.page.locator('#like'));
    expect(await visible(s, 'Added to Liked Songs')).toBe(true);
    expect(await reason(s, 'sleep_timer', { ...tp, sleep_after: '45 minutes' })).toBe(
      '"Northern Light" by Hazel & the Harbor is playing with a 45 minutes sleep timer but "Northern Light" by Hazel & the Harbor was liked',
    );
    await s.close();
  }, 120_000);
});
