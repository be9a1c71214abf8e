import { rng, shuffle } from '../shared.js';

/** A performer. */
export interface Artist {
  id: number;
  name: string;
  genre: string;
  /** Monthly listeners (moves a little between seeds). */
  listeners: number;
  bio: string;
}

/** An album (or EP) of one artist. */
export interface Album {
  id: number;
  title: string;
  artistId: number;
  year: number;
  kind: string;
  color: string;
}

/** A track of an album. */
export interface Song {
  id: number;
  title: string;
  artistId: number;
  albumId: number;
  track: number;
  seconds: number;
  genre: string;
  /** Streams (moves between seeds, and with it the order of search results). */
  plays: number;
}

/** A playlist: the member's own, or one the app made for them (a mix). */
export interface Playlist {
  id: number;
  name: string;
  /** True for the member's own playlists (only those can be edited). */
  mine: boolean;
  description: string;
  songIds: number[];
  color: string;
  /** Available offline. */
  downloaded: boolean;
  deleted: boolean;
  seeded: boolean;
  /** Order it was made in this session (0 for a seeded one). */
  seq: number;
}

export interface Podcast {
  id: number;
  title: string;
  publisher: string;
  category: string;
  description: string;
  color: string;
  followed: boolean;
}

export interface Episode {
  id: number;
  podcastId: number;
  number: number;
  title: string;
  /** Release date, e.g. "May 28". */
  date: string;
  minutes: number;
  description: string;
  downloaded: boolean;
  /** Share already listened to (0 … 1). */
  progress: number;
}

export type Kind = 'song' | 'episode';
export type RefKind = 'album' | 'playlist' | 'podcast' | 'artist';

/** What is loaded in the player. */
export interface Player {
  kind: Kind;
  id: number;
  playing: boolean;
  /** Seconds into it. */
  position: number;
  /** Where it was started from (an album or a playlist), for Previous / Next; null for a single song or an episode. */
  context: { kind: 'album' | 'playlist' | 'liked' | 'search'; id: number; songIds: number[] } | null;
  /** Songs added with Add to queue. */
  queue: number[];
}

export interface Settings {
  wifiQuality: string;
  cellQuality: string;
  downloadQuality: string;
  crossfade: string;
  gapless: boolean;
  autoplay: boolean;
  normalize: boolean;
  cellularDownloads: boolean;
}

/** The app's per-session state. Read by checkers in-process; the page never sees this object. */
export interface TunesState {
  seed: number;
  artists: Artist[];
  albums: Album[];
  songs: Song[];
  playlists: Playlist[];
  podcasts: Podcast[];
  episodes: Episode[];
  /** Liked songs, most recently liked first. */
  liked: number[];
  followedArtists: number[];
  /** Recently played things on Home, most recent first. */
  recent: { kind: RefKind; id: number }[];
  player: Player;
  /** "Off" or one of SLEEP_OPTIONS. */
  sleepTimer: string;
  /** Order the sleep timer was last set in this session (0: never). */
  timerSeq: number;
  settings: Settings;
  /** A message to show once on the next page (set by an action that navigates). */
  flash: string;
  seq: number;
}

export const BRAND = 'Sonquil';
export const USER = 'Maya Lindqvist';
export const USER_EMAIL = 'maya.lindqvist@example.com';
export const PLAN = 'Sonquil Plus · Individual';
export const NAME_MAX = 40;

export const SLEEP_OPTIONS: readonly string[] = ['5 minutes', '10 minutes', '15 minutes', '30 minutes', '45 minutes', '1 hour', 'End of track'];
export const QUALITIES: readonly string[] = ['Automatic', 'Low', 'Normal', 'High', 'Very high'];
export const DOWNLOAD_QUALITIES: readonly string[] = ['Normal', 'High', 'Very high'];
export const CROSSFADES: readonly string[] = ['Off', '2 seconds', '5 seconds', '8 seconds', '12 seconds'];
export const GENRES: readonly (readonly [string, string])[] = [
  ['Pop', '#d6336c'],
  ['Rock', '#e8590c'],
  ['Folk', '#5c940d'],
  ['Indie', '#1c7ed6'],
  ['Jazz', '#6741d9'],
  ['Electronic', '#0c8599'],
  ['R&B & Soul', '#a61e4d'],
];

type ArtistRow = readonly [name: string, genre: string, listeners: number, bio: string];
const ARTISTS: readonly ArtistRow[] = [
  ['Juniper Vale', 'Folk', 412000, 'Songs about small towns and long drives, written in a cabin in Vermont.'],
  ['The Copper Lanterns', 'Rock', 1280000, 'A four-piece from Detroit with loud guitars and louder choruses.'],
  ['Nova Reyes', 'Pop', 3950000, 'Bright, sticky pop from Los Angeles. Her second album came out last spring.'],
  ['Kofi Mensah Trio', 'Jazz', 188000, 'Piano, upright bass and drums. Standards and originals for late evenings.'],
  ['Lumen Drift', 'Electronic', 902000, 'Slow-building synth music for focus, night drives and sunrise.'],
  ['Hazel & the Harbor', 'Folk', 356000, 'Harmonies from the coast of Maine, with banjo and a lot of fiddle.'],
  ['Marlo Quinn', 'R&B & Soul', 1675000, 'Smooth R&B with a seventies heart.'],
  ['Static Orchard', 'Rock', 540000, 'Nineties-style alternative rock, fuzz pedals included.'],
  ['Ines Calloway', 'Indie', 274000, 'Kitchen-table songwriting: quiet, funny and sad at the same time.'],
  ['Sable Monroe', 'R&B & Soul', 731000, 'A big voice, a horn section and songs that sound like summer nights.'],
];

type AlbumRow = readonly [title: string, artist: string, year: number, kind: string, color: string, genre: string, songs: readonly (readonly [string, string])[]];
const ALBUMS: readonly AlbumRow[] = [
  ['Quiet Country', 'Juniper Vale', 2021, 'Album', '#5c940d', 'Folk', [['Midnight Train', '3:52'], ['Paper Boats', '3:11'], ['Golden Hour', '4:05']]],
  ['Rust & Rain', 'The Copper Lanterns', 2019, 'Album', '#c2410c', 'Rock', [['Midnight Train', '4:21'], ['Highway Ghosts', '3:47'], ['Ember', '3:29']]],
  ['Neon Postcards', 'Nova Reyes', 2023, 'Album', '#d6336c', 'Pop', [['Golden Hours', '3:18'], ['Slow Dancing', '3:34'], ['Sugar Rush', '2:58']]],
  ['Blue Ferry', 'Kofi Mensah Trio', 2020, 'Album', '#364fc7', 'Jazz', [['Blue Ferry', '6:12'], ['Late Night Standard', '5:40'], ['Rainy Tuesday', '4:55']]],
  ['Afterglow Engine', 'Lumen Drift', 2022, 'Album', '#0c8599', 'Electronic', [['Afterglow', '4:48'], ['Satellite Hearts', '3:59'], ['Low Orbit', '5:21']]],
  ['Salt Lines', 'Hazel & the Harbor', 2021, 'Album', '#2b8a3e', 'Folk', [['Lighthouse', '3:41'], ['Slow Dance', '3:26'], ['Northern Light', '4:02']]],
  ['Velvet Hours', 'Marlo Quinn', 2024, 'Album', '#862e9c', 'R&B & Soul', [['Stay a While', '3:37'], ['Velvet', '3:12'], ['Northern Lights', '3:55']]],
  ['Wires', 'Static Orchard', 2018, 'Album', '#495057', 'Rock', [['Paper Planes', '3:05'], ['Fault Lines', '4:14'], ['Overpass', '3:33']]],
  ['Kitchen Light', 'Ines Calloway', 2022, 'EP', '#1971c2', 'Indie', [['Letters Home', '3:48'], ['Sunday Sweater', '2:57'], ['Wildflower', '3:20']]],
  ['Honey & Smoke', 'Sable Monroe', 2020, 'Album', '#a61e4d', 'R&B & Soul', [['Honey', '3:44'], ['Slow Burn', '4:10'], ['Back Porch Blues', '3:58']]],
];

/** A song as "Title|Artist" (titles repeat: two artists have a "Midnight Train"). */
type SongRef = string;
type PlaylistRow = readonly [name: string, description: string, color: string, songs: readonly SongRef[], downloaded: boolean];
const MY_PLAYLISTS: readonly PlaylistRow[] = [
  ['Road Trip', 'For the drive up the coast.', '#e8590c', ['Highway Ghosts|The Copper Lanterns', 'Sugar Rush|Nova Reyes', 'Overpass|Static Orchard', 'Ember|The Copper Lanterns', 'Fault Lines|Static Orchard'], true],
  ['Road Trip Classics', 'The old favourites.', '#c92a2a', ['Midnight Train|The Copper Lanterns', 'Lighthouse|Hazel & the Harbor', 'Paper Planes|Static Orchard', 'Back Porch Blues|Sable Monroe'], false],
  ['Morning Run', '5K pace, no skipping.', '#f08c00', ['Sugar Rush|Nova Reyes', 'Satellite Hearts|Lumen Drift', 'Low Orbit|Lumen Drift', 'Stay a While|Marlo Quinn', 'Golden Hours|Nova Reyes'], false],
  ['Focus Flow', 'Deep work, no lyrics (mostly).', '#0c8599', ['Afterglow|Lumen Drift', 'Blue Ferry|Kofi Mensah Trio', 'Late Night Standard|Kofi Mensah Trio', 'Rainy Tuesday|Kofi Mensah Trio', 'Low Orbit|Lumen Drift'], false],
  ['Dinner Party', 'Low enough to talk over.', '#862e9c', ['Velvet|Marlo Quinn', 'Honey|Sable Monroe', 'Slow Burn|Sable Monroe', 'Late Night Standard|Kofi Mensah Trio', 'Wildflower|Ines Calloway'], false],
  ['Sunday Slow Jams', 'Coffee, pancakes, nowhere to be.', '#5f3dc4', ['Slow Burn|Sable Monroe', 'Stay a While|Marlo Quinn', 'Sunday Sweater|Ines Calloway', 'Letters Home|Ines Calloway', 'Slow Dance|Hazel & the Harbor'], false],
];
const MIXES: readonly PlaylistRow[] = [
  ['Daily Mix 1', 'Juniper Vale, Hazel & the Harbor, Ines Calloway and more', '#2b8a3e', ['Paper Boats|Juniper Vale', 'Northern Light|Hazel & the Harbor', 'Wildflower|Ines Calloway', 'Golden Hour|Juniper Vale', 'Lighthouse|Hazel & the Harbor'], false],
  ['Daily Mix 2', 'The Copper Lanterns, Static Orchard, Lumen Drift and more', '#e03131', ['Ember|The Copper Lanterns', 'Paper Planes|Static Orchard', 'Satellite Hearts|Lumen Drift', 'Midnight Train|The Copper Lanterns'], false],
  ['Weekly Finds', 'New music picked for you every Monday.', '#1971c2', ['Northern Lights|Marlo Quinn', 'Slow Dancing|Nova Reyes', 'Rainy Tuesday|Kofi Mensah Trio', 'Back Porch Blues|Sable Monroe'], false],
  ['Throwback Mix', 'Songs you loved a few years ago.', '#f59f00', ['Overpass|Static Orchard', 'Highway Ghosts|The Copper Lanterns', 'Honey|Sable Monroe', 'Midnight Train|Juniper Vale'], false],
];

type EpisodeRow = readonly [number: number, title: string, date: string, minutes: number, description: string];
type PodcastRow = readonly [title: string, publisher: string, category: string, color: string, followed: boolean, description: string, episodes: readonly EpisodeRow[]];
const PODCASTS: readonly PodcastRow[] = [
  [
    'Kitchen Table Stories',
    'Hearth Audio',
    'Food',
    '#e67700',
    false,
    'Family recipes and the stories behind them, told by the people who still cook them.',
    [
      [48, 'The Recipe My Grandmother Never Wrote Down', 'May 29', 38, 'A granddaughter rebuilds a dumpling recipe from memory and three phone calls.'],
      [47, 'Sourdough and Second Chances, Part 2', 'May 22', 41, 'The bakery reopens. Does the starter survive the move?'],
      [46, 'Sourdough and Second Chances', 'May 15', 44, 'A baker loses her shop and keeps the one thing that matters: the starter.'],
      [45, 'A Wedding Cake in a Snowstorm', 'May 8', 36, 'Seven tiers, one van and a road closed by snow.'],
      [44, 'The Night Market', 'May 1', 40, 'Three vendors, one parking lot, every Friday after dark.'],
      [43, 'Lunchbox Notes', 'Apr 24', 33, 'What we packed for our kids, and what they actually ate.'],
    ],
  ],
  [
    'Kitchen Table Talks',
    'Plate & Fork Media',
    'Food',
    '#f08c00',
    true,
    'Two chefs answer your cooking questions. New episodes every Tuesday.',
    [
      [89, 'Meal Prep Without the Boredom', 'May 27', 47, 'Five bases, fifteen dinners.'],
      [88, 'Knife Skills 101', 'May 20', 39, 'Which knife, how to hold it, and how not to lose a finger.'],
      [87, 'The Perfect Roast Chicken', 'May 13', 42, 'Dry brine, high heat, and patience.'],
      [86, 'Baking with Kids', 'May 6', 35, 'Less mess, more cookies.'],
      [85, 'Feeding a Crowd on a Budget', 'Apr 29', 44, 'Twelve people, sixty dollars.'],
    ],
  ],
  [
    'Deep Field',
    'Skyward Radio',
    'Science',
    '#1864ab',
    false,
    'Astronomy for curious people. An astronomer and a comedian look up.',
    [
      [112, 'Why Is the Night Sky Dark?', 'May 30', 31, 'An old question with a surprisingly big answer.'],
      [111, 'Living on Mars, For Real', 'May 23', 46, 'Water, air, food and the five-year commute.'],
      [110, 'The Moons of Jupiter', 'May 16', 38, 'Ninety-five moons and at least one ocean.'],
      [109, 'Moons of Saturn', 'May 9', 40, 'Titan, Enceladus and the ring shepherds.'],
      [108, 'Black Holes for Beginners', 'May 2', 43, 'What goes in, and what (sort of) comes out.'],
      [107, 'Comets, Up Close', 'Apr 25', 35, 'Dirty snowballs with very long tails.'],
    ],
  ],
  [
    'Money Minutes',
    'Ledger Lane',
    'Business',
    '#2f9e44',
    true,
    'Short, friendly episodes about everyday money.',
    [
      [205, 'Your First Budget', 'May 31', 18, 'A budget you will actually keep.'],
      [204, 'Paying Off Credit Cards', 'May 24', 21, 'Avalanche or snowball?'],
      [203, 'Renting vs. Buying', 'May 17', 24, 'The math, and the part that is not math.'],
      [202, 'Saving for a Trip', 'May 10', 16, 'A sinking fund for the fun stuff.'],
      [201, 'What Is an Index Fund?', 'May 3', 19, 'The boring investment that works.'],
    ],
  ],
  [
    'History Unboxed',
    'Dusty Archive Studios',
    'History',
    '#7c5c2e',
    false,
    'One object, one story from the past, every week.',
    [
      [31, 'The Lost Library of Alexandria', 'May 28', 52, 'What really happened to the scrolls.'],
      [30, 'Who Built the Pyramids?', 'May 21', 49, 'Workers, bread rations and graffiti.'],
      [29, 'The Great Fire of London', 'May 14', 45, 'Four days in 1666 that remade a city.'],
      [28, 'The Great Stink of 1858', 'May 7', 41, 'A hot summer, the Thames, and the birth of the sewer.'],
      [27, 'Pirates of the Caribbean, the Real Ones', 'Apr 30', 55, 'Less rum, more paperwork.'],
      [26, 'A Short History of Coffee', 'Apr 23', 38, 'From an Ethiopian hillside to your kitchen.'],
    ],
  ],
];

/** Episodes already downloaded at the start (podcast, number). */
const DOWNLOADED: readonly (readonly [string, number])[] = [
  ['Kitchen Table Talks', 89],
  ['Kitchen Table Talks', 87],
  ['Money Minutes', 205],
];
const LIKED: readonly SongRef[] = [
  'Sugar Rush|Nova Reyes',
  'Lighthouse|Hazel & the Harbor',
  'Velvet|Marlo Quinn',
  'Blue Ferry|Kofi Mensah Trio',
  'Stay a While|Marlo Quinn',
  'Overpass|Static Orchard',
  'Letters Home|Ines Calloway',
  'Afterglow|Lumen Drift',
];
const FOLLOWED_ARTISTS: readonly string[] = ['Juniper Vale', 'Nova Reyes', 'Kofi Mensah Trio'];

const seconds = (mmss: string): number => {
  const [m, s] = mmss.split(':').map(Number);
  return (m ?? 0) * 60 + (s ?? 0);
};

export function initialTunesState(seed: number): TunesState {
  const rand = rng(seed ^ 0x7a11e5);
  const artists: Artist[] = ARTISTS.map(([name, genre, listeners, bio], i) => ({ id: 11 + i, name, genre, listeners: Math.round(listeners * (0.9 + rand() * 0.2)), bio }));
  const artistId = (name: string): number => artists.find((a) => a.name === name)!.id;
  const albums: Album[] = [];
  const songs: Song[] = [];
  ALBUMS.forEach(([title, artist, year, kind, color, genre, tracks], i) => {
    const album: Album = { id: 101 + i, title, artistId: artistId(artist), year, kind, color };
    albums.push(album);
    tracks.forEach(([t, len], j) => {
      songs.push({ id: 201 + songs.length, title: t, artistId: album.artistId, albumId: album.id, track: j + 1, seconds: seconds(len), genre, plays: 200000 + Math.floor(rand() * 9000000) });
    });
  });
  const songOf = (ref: SongRef): number => {
    const [t, a] = ref.split('|');
    const s = songs.find((x) => x.title === t && x.artistId === artistId(a ?? ''));
    if (!s) throw new Error(`tunes seed: no song ${ref}`);
    return s.id;
  };
  const playlists: Playlist[] = [
    ...MY_PLAYLISTS.map(([name, description, color, list, downloaded], i) => ({
      id: 301 + i,
      name,
      mine: true,
      description,
      songIds: list.map(songOf),
      color,
      downloaded,
      deleted: false,
      seeded: true,
      seq: 0,
    })),
    ...MIXES.map(([name, description, color, list], i) => ({
      id: 351 + i,
      name,
      mine: false,
      description,
      songIds: shuffle(list.map(songOf), rand),
      color,
      downloaded: false,
      deleted: false,
      seeded: true,
      seq: 0,
    })),
  ];
  const podcasts: Podcast[] = [];
  const episodes: Episode[] = [];
  PODCASTS.forEach(([title, publisher, category, color, followed, description, eps], i) => {
    const p: Podcast = { id: 501 + i, title, publisher, category, description, color, followed };
    podcasts.push(p);
    for (const [number, t, date, minutes, d] of eps)
      episodes.push({
        id: 601 + episodes.length,
        podcastId: p.id,
        number,
        title: t,
        date,
        minutes,
        description: d,
        downloaded: DOWNLOADED.some(([pt, n]) => pt === title && n === number),
        progress: followed && rand() < 0.4 ? Math.round(rand() * 90) / 100 : 0,
      });
  });
  const podcastId = (title: string): number => podcasts.find((p) => p.title === title)!.id;
  const episodeOf = (title: string, n: number): Episode => episodes.find((e) => e.podcastId === podcastId(title) && e.number === n)!;
  const albumId = (title: string): number => albums.find((a) => a.title === title)!.id;
  const playlistId = (name: string): number => playlists.find((p) => p.name === name)!.id;
  const recent = shuffle<{ kind: RefKind; id: number }>(
    [
      { kind: 'album', id: albumId('Quiet Country') },
      { kind: 'playlist', id: playlistId('Morning Run') },
      { kind: 'podcast', id: podcastId('Kitchen Table Talks') },
      { kind: 'playlist', id: playlistId('Daily Mix 1') },
      { kind: 'album', id: albumId('Neon Postcards') },
      { kind: 'artist', id: artistId('Lumen Drift') },
      { kind: 'playlist', id: playlistId('Focus Flow') },
      { kind: 'album', id: albumId('Rust & Rain') },
    ],
    rand,
  );
  const knife = episodeOf('Kitchen Table Talks', 88);
  knife.progress = 0.35;
  return {
    seed,
    artists,
    albums,
    songs,
    playlists,
    podcasts,
    episodes,
    liked: LIKED.map(songOf),
    followedArtists: FOLLOWED_ARTISTS.map(artistId),
    recent,
    player: { kind: 'episode', id: knife.id, playing: false, position: Math.round(knife.minutes * 60 * knife.progress) + Math.floor(rand() * 60), context: null, queue: [] },
    sleepTimer: 'Off',
    timerSeq: 0,
    settings: { wifiQuality: 'Automatic', cellQuality: 'Normal', downloadQuality: 'High', crossfade: 'Off', gapless: true, autoplay: true, normalize: true, cellularDownloads: false },
    flash: '',
    seq: 0,
  };
}

export const songOf = (st: TunesState, id: number): Song | undefined => st.songs.find((s) => s.id === id);
export const artistOf = (st: TunesState, id: number): Artist | undefined => st.artists.find((a) => a.id === id);
export const albumOf = (st: TunesState, id: number): Album | undefined => st.albums.find((a) => a.id === id);
export const playlistOf = (st: TunesState, id: number): Playlist | undefined => st.playlists.find((p) => p.id === id && !p.deleted);
export const podcastOf = (st: TunesState, id: number): Podcast | undefined => st.podcasts.find((p) => p.id === id);
export const episodeOf = (st: TunesState, id: number): Episode | undefined => st.episodes.find((e) => e.id === id);
export const artistName = (st: TunesState, s: Song): string => artistOf(st, s.artistId)?.name ?? '';
/** "Golden Hour" by Juniper Vale. */
export const songText = (st: TunesState, s: Song): string => `"${s.title}" by ${artistName(st, s)}`;
/** The member's own playlists that still exist, newest first, then the seeded ones in their order. */
export const myPlaylists = (st: TunesState): Playlist[] =>
  st.playlists.filter((p) => p.mine && !p.deleted).sort((a, b) => (b.seq || 0) - (a.seq || 0) || a.id - b.id);
export const mixes = (st: TunesState): Playlist[] => st.playlists.filter((p) => !p.mine && !p.deleted);
export const episodesOf = (st: TunesState, podcastId: number): Episode[] => st.episodes.filter((e) => e.podcastId === podcastId).sort((a, b) => b.number - a.number);
export const findSong = (st: TunesState, title: string, artist: string): Song | undefined =>
  st.songs.find((s) => s.title.toLowerCase() === title.trim().toLowerCase() && artistName(st, s).toLowerCase() === artist.trim().toLowerCase());

/** "3:52". */
export const clock = (sec: number): string => `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, '0')}`;
/** "18 min", "1 hr 12 min". */
export function lengthLabel(sec: number): string {
  const m = Math.round(sec / 60);
  return m >= 60 ? `${Math.floor(m / 60)} hr ${m % 60} min` : `${m} min`;
}
/** "4.1M", "412K". */
export const compact = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}K` : String(n));

/** Why a playlist name cannot be used (empty when it can). */
export function nameError(st: TunesState, raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name) return 'Give your playlist a name';
  if (name.length > NAME_MAX) return `Keep it under ${NAME_MAX} characters`;
  const taken = st.playlists.find((p) => !p.deleted && p.name.toLowerCase() === name.toLowerCase());
  if (taken) return `You already have a playlist called ${taken.name}`;
  return '';
}
