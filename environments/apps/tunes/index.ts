import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleTunes } from './app.js';
import { tunesCheckers } from './checkers.js';
import { initialTunesState, type TunesState } from './state.js';

export const TUNES_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Sonquil, a music and podcast streaming app (Home with Recently played, Made for you and shows to try; Search; Your
 * Library with Liked Songs, Downloaded, playlists and followed podcasts; album, artist, playlist, podcast and episode
 * pages; Now playing with a sleep timer; Settings): make a playlist with a song in it, add a song to one of the member's
 * playlists, follow a podcast and download one of its episodes, play a song and set the sleep timer. Added as a
 * held-out app, written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests)
 * and the earlier paraphrase sets, never the policy, critics or query generator's consumers.
 */
export const tunesApp: AppModule<TunesState> = {
  id: 'tunes',
  title: 'Sonquil',
  icon: { color: '#0b7a5f', glyph: 'Sq' },
  dag: loadDag(TUNES_DAG_PATH, 'environments/apps/tunes/dag.json'),
  initialState: initialTunesState,
  handle: handleTunes,
  checkers: tunesCheckers,
};
