import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { episodesOf, findSong, initialTunesState, SLEEP_OPTIONS, songOf, songText, type Episode, type Playlist, type Song, type TunesState } from './state.js';

export const TUNES_FAMILIES = ['create_playlist', 'add_to_playlist', 'follow_podcast_download', 'sleep_timer'] as const;
export type TunesFamily = (typeof TUNES_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`tunes checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`tunes checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.join(', ');
const quoted = (name: string): string => `"${name}"`;

/** Success checkers for the music and podcast app; they read the server-side session state in-process. */
export function check(state: TunesState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'tunes') throw new Error(`tunes checker got a spec for app "${spec.app}"`);
  const start = initialTunesState(state.seed);
  const song = (): Song => {
    const title = param(spec, 'song');
    const artist = param(spec, 'artist');
    const s = findSong(start, title, artist);
    if (!s) throw new Error(`tunes checker ${spec.family}: unknown song "${title}" by "${artist}"`);
    return s;
  };
  const text = (id: number): string => {
    const s = songOf(state, id);
    return s ? songText(state, s) : `song ${id}`;
  };
  const startList = (id: number): Playlist | undefined => start.playlists.find((p) => p.id === id);
  const added = (p: Playlist): number[] => {
    const rest = [...(startList(p.id)?.songIds ?? [])];
    const out: number[] = [];
    for (const id of p.songIds) {
      const i = rest.indexOf(id);
      if (i >= 0) rest.splice(i, 1);
      else out.push(id);
    }
    return out;
  };
  const removed = (p: Playlist): number[] => {
    const rest = [...p.songIds];
    const out: number[] = [];
    for (const id of startList(p.id)?.songIds ?? []) {
      const i = rest.indexOf(id);
      if (i >= 0) rest.splice(i, 1);
      else out.push(id);
    }
    return out;
  };
  const created = state.playlists.filter((p) => !p.seeded).sort((a, b) => a.seq - b.seq);
  const liveCreated = created.filter((p) => !p.deleted);
  const deleted = state.playlists.filter((p) => p.seeded && p.deleted);
  const changed = state.playlists.filter((p) => p.seeded && !p.deleted && (added(p).length || removed(p).length));
  const likedNow = state.liked.filter((id) => !start.liked.includes(id));
  const unliked = start.liked.filter((id) => !state.liked.includes(id));
  const follows = state.podcasts.filter((p) => p.followed !== start.podcasts.find((x) => x.id === p.id)?.followed);
  const startEp = (e: Episode): Episode | undefined => start.episodes.find((x) => x.id === e.id);
  const downloads = state.episodes.filter((e) => e.downloaded && !startEp(e)?.downloaded);
  const undownloads = state.episodes.filter((e) => !e.downloaded && startEp(e)?.downloaded);
  const epText = (e: Episode): string => `"${e.title}"`;
  /** Changes no family asks for beyond its own: playlists made, deleted or edited, likes, podcast follows, episode downloads. */
  const sideEffects = (o: { created?: number; playlist?: number; podcast?: number; episode?: number }): string[] => {
    const out: string[] = [];
    const others = liveCreated.filter((p) => p.id !== o.created);
    if (others.length) out.push(`the playlist${others.length > 1 ? 's' : ''} ${list(others.map((p) => quoted(p.name)))} ${others.length > 1 ? 'were' : 'was'} created`);
    if (deleted.length) out.push(`${list(deleted.map((p) => quoted(p.name)))} was deleted`);
    for (const p of changed) {
      const plus = p.id === o.playlist ? [] : added(p);
      const minus = removed(p);
      if (plus.length) out.push(`${list(plus.map(text))} was added to ${quoted(p.name)}`);
      if (minus.length) out.push(`${list(minus.map(text))} was removed from ${quoted(p.name)}`);
    }
    if (likedNow.length) out.push(`${list(likedNow.map(text))} was liked`);
    if (unliked.length) out.push(`${list(unliked.map(text))} was removed from Liked Songs`);
    for (const p of follows.filter((x) => x.id !== o.podcast)) out.push(`${quoted(p.title)} was ${p.followed ? 'followed' : 'unfollowed'}`);
    const dl = downloads.filter((e) => e.id !== o.episode);
    if (dl.length) out.push(`${list(dl.map(epText))} was downloaded`);
    if (undownloads.length) out.push(`the download of ${list(undownloads.map(epText))} was removed`);
    return out;
  };
  switch (spec.family as TunesFamily) {
    case 'create_playlist': {
      const name = param(spec, 'new_playlist');
      const want = song();
      const taken = start.playlists.find((p) => same(p.name, name));
      if (taken) throw new Error(`tunes checker create_playlist: there is already a playlist called "${taken.name}"`);
      const wantText = songText(start, want);
      const p = created.find((x) => same(x.name, name)) ?? created[created.length - 1];
      if (!p) return no('no playlist was created');
      if (!same(p.name, name)) return no(`the new playlist is called "${p.name}", expected "${name}"`);
      if (p.deleted) return no(`"${p.name}" was created and then deleted`);
      if (!p.songIds.includes(want.id)) {
        if (!p.songIds.length) return no(`"${p.name}" was created but has no songs, expected ${wantText}`);
        return no(`"${p.name}" has ${list(p.songIds.map(text))}, expected ${wantText}`);
      }
      const extra = p.songIds.filter((id) => id !== want.id);
      if (extra.length || p.songIds.length > 1) return no(`"${p.name}" has ${list(p.songIds.map(text))}, expected only ${wantText}`);
      if (liveCreated.length > 1) return no(`${liveCreated.length} playlists were created (${list(liveCreated.map((x) => quoted(x.name)))}), expected one`);
      const other = sideEffects({ created: p.id });
      if (other.length) return no(`"${p.name}" was created with ${wantText} but ${other.join(' and ')}`);
      return ok(`created the playlist "${p.name}" with ${wantText}`);
    }
    case 'add_to_playlist': {
      const want = song();
      const mine = start.playlists.filter((p) => p.mine);
      const name = param(
        spec,
        'playlist',
        mine.map((p) => p.name),
      );
      const target0 = mine.find((p) => same(p.name, name))!;
      if (target0.songIds.includes(want.id)) throw new Error(`tunes checker add_to_playlist: ${songText(start, want)} is already in "${target0.name}"`);
      const wantText = songText(start, want);
      const target = state.playlists.find((p) => p.id === target0.id)!;
      if (target.deleted) return no(`"${target.name}" was deleted`);
      const plus = added(target);
      if (!plus.includes(want.id)) {
        const elsewhere = [...changed.filter((p) => added(p).includes(want.id)), ...liveCreated.filter((p) => p.songIds.includes(want.id))];
        if (elsewhere.length) return no(`${wantText} was added to ${list(elsewhere.map((p) => quoted(p.name)))}, expected "${target.name}"`);
        if (plus.length) return no(`${list(plus.map(text))} was added to "${target.name}", expected ${wantText}`);
        return no(`${wantText} was not added to "${target.name}"`);
      }
      const extra = plus.filter((id) => id !== want.id);
      if (extra.length || plus.length > 1) return no(`${wantText} was added to "${target.name}" but ${list(extra.length ? extra.map(text) : [wantText])} too`);
      const other = sideEffects({ playlist: target.id });
      if (other.length) return no(`${wantText} was added to "${target.name}" but ${other.join(' and ')}`);
      return ok(`added ${wantText} to "${target.name}"`);
    }
    case 'follow_podcast_download': {
      const candidates = start.podcasts.filter((p) => !p.followed);
      const title = param(
        spec,
        'podcast',
        candidates.map((p) => p.title),
      );
      const pod0 = candidates.find((p) => same(p.title, title))!;
      const epName = param(
        spec,
        'episode',
        episodesOf(start, pod0.id).map((e) => e.title),
      );
      const ep0 = episodesOf(start, pod0.id).find((e) => same(e.title, epName))!;
      if (ep0.downloaded) throw new Error(`tunes checker follow_podcast_download: "${ep0.title}" is already downloaded`);
      const pod = state.podcasts.find((p) => p.id === pod0.id)!;
      const ep = state.episodes.find((e) => e.id === ep0.id)!;
      const mineDl = downloads.filter((e) => e.podcastId === pod.id && e.id !== ep.id);
      if (!pod.followed && !ep.downloaded)
        return no(`"${pod.title}" is not followed and "${ep.title}" is not downloaded${mineDl.length ? ` (downloaded ${list(mineDl.map(epText))} instead)` : ''}`);
      if (!pod.followed) return no(`"${ep.title}" was downloaded but "${pod.title}" is not followed`);
      if (!ep.downloaded) return no(`"${pod.title}" is followed but "${ep.title}" is not downloaded${mineDl.length ? ` (downloaded ${list(mineDl.map(epText))} instead)` : ''}`);
      if (mineDl.length) return no(`"${ep.title}" was downloaded but ${list(mineDl.map(epText))} too`);
      const other = sideEffects({ podcast: pod.id, episode: ep.id });
      if (other.length) return no(`followed "${pod.title}" and downloaded "${ep.title}" but ${other.join(' and ')}`);
      return ok(`followed "${pod.title}" and downloaded episode ${ep.number}, "${ep.title}"`);
    }
    case 'sleep_timer': {
      const want = song();
      const after = param(
        spec,
        'sleep_after',
        SLEEP_OPTIONS.filter((o) => o !== 'End of track'),
      );
      const wantText = songText(start, want);
      const p = state.player;
      if (p.kind !== 'song') {
        const e = state.episodes.find((x) => x.id === p.id);
        return no(`an episode${e ? ` ("${e.title}")` : ''} is ${p.playing ? 'playing' : 'loaded'}, expected ${wantText} to be playing`);
      }
      if (p.id !== want.id) {
        const s = songOf(state, p.id);
        return no(`${s ? songText(state, s) : 'another song'} is ${p.playing ? 'playing' : 'loaded'}, expected ${wantText}`);
      }
      if (!p.playing) return no(`${wantText} is paused, expected it to be playing`);
      if (state.sleepTimer === 'Off') return no(`${wantText} is playing but no sleep timer is set`);
      if (!same(state.sleepTimer, after)) return no(`the sleep timer is set to ${state.sleepTimer}, expected ${after}`);
      const other = sideEffects({});
      if (other.length) return no(`${wantText} is playing with a ${state.sleepTimer} sleep timer but ${other.join(' and ')}`);
      return ok(`${wantText} is playing, sleep timer ${state.sleepTimer}`);
    }
    default:
      throw new Error(`tunes checker: unknown task family "${spec.family}" (known: ${TUNES_FAMILIES.join(', ')})`);
  }
}

export const tunesCheckers: AppCheckers<TunesState> = { families: TUNES_FAMILIES, check };
