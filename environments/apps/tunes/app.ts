import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, bottomNav as navBar, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  albumOf,
  artistName,
  artistOf,
  BRAND,
  clock,
  compact,
  CROSSFADES,
  DOWNLOAD_QUALITIES,
  episodeOf,
  episodesOf,
  GENRES,
  lengthLabel,
  mixes,
  myPlaylists,
  nameError,
  PLAN,
  playlistOf,
  podcastOf,
  QUALITIES,
  SLEEP_OPTIONS,
  songOf,
  USER,
  USER_EMAIL,
  type Album,
  type Artist,
  type Episode,
  type Player,
  type Playlist,
  type Podcast,
  type RefKind,
  type Settings,
  type Song,
  type TunesState,
} from './state.js';

const ACCENT = '#0b7a5f';
const SOFT = '#d2f4e8';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f4f6f5}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#fff;border-top:1px solid #d8dedb}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:3px;font-size:13px;font-weight:bold;color:#5b6360}
.bnav a .g{font-size:21px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:150px}
.toast{bottom:140px}
.mini{position:fixed;left:8px;right:8px;bottom:70px;z-index:29;height:60px;display:flex;align-items:center;gap:10px;padding:0 6px 0 8px;background:#1d2b27;color:#fff;border-radius:12px;box-shadow:0 3px 10px rgba(0,0,0,.3)}
.mini .mi{flex:1;display:flex;align-items:center;gap:10px;min-width:0;height:100%}
.mini .t{font-size:16px;font-weight:bold;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.mini .s{font-size:13px;color:#b9c7c2;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.mini .info{min-width:0}
.mini .mpp{width:48px;height:48px;border-radius:24px;font-size:22px;color:#fff}
.art{flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-weight:bold;border-radius:6px}
.art.round{border-radius:50%}
.hello{padding:14px 16px 2px;font-size:24px;font-weight:bold;color:#14201c}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:8px;padding:6px 12px}
.tile{display:flex;align-items:center;gap:10px;height:56px;background:#fff;border-radius:8px;overflow:hidden;font-size:15px;font-weight:bold;color:#14201c;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.tile .art{border-radius:0}
.tile span{overflow:hidden;text-overflow:ellipsis;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;padding-right:6px}
.cards{display:grid;grid-template-columns:1fr 1fr;gap:12px;padding:6px 12px}
.card{display:block;background:#fff;border-radius:10px;padding:10px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.card .art{width:100%;height:96px;font-size:26px;margin-bottom:8px}
.card .t{font-size:16px;font-weight:bold;color:#14201c}
.card .s{font-size:13px;color:#5b6360;margin-top:2px;overflow:hidden;text-overflow:ellipsis;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.find{display:flex;margin:10px 12px 6px;border:2px solid #b4c2bd;border-radius:12px;background:#fff;overflow:hidden}
.find input{flex:1;height:52px;border:none;padding:0 14px;font-size:17px;outline:none;background:#fff}
.find button{padding:0 18px;font-size:16px;font-weight:bold;color:#fff;background:${ACCENT}}
.genres{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:6px 12px}
.genre{height:76px;border-radius:10px;padding:12px;color:#fff;font-size:18px;font-weight:bold}
.sub{padding:8px 16px 4px;font-size:15px;color:#4f5a56}
.srow{display:flex;align-items:center;background:#fff;border-bottom:1px solid #e5eae8;min-height:66px}
.srow .sp{flex:1;display:flex;align-items:center;gap:12px;padding:8px 0 8px 14px;text-align:left;min-width:0}
.srow .n{width:22px;text-align:center;color:#6b7672;font-size:15px;flex:none}
.srow .info{min-width:0}
.srow .t{font-size:17px;color:#14201c;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.srow .s{font-size:14px;color:#5b6360;margin-top:2px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.srow.on .t{color:${ACCENT};font-weight:bold}
.srow .more{width:48px;height:52px;font-size:24px;color:#4f5a56;flex:none}
.lrow{display:flex;align-items:center;gap:12px;min-height:68px;padding:8px 14px;background:#fff;border-bottom:1px solid #e5eae8}
.lrow .info{flex:1;min-width:0}
.lrow .t{font-size:17px;font-weight:bold;color:#14201c;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.lrow .s{font-size:14px;color:#5b6360;margin-top:2px}
.lrow.dim{opacity:.55}
.lrow .tag{font-size:13px;font-weight:bold;color:${ACCENT}}
.chips{display:flex;flex-wrap:wrap;gap:8px;padding:10px 12px 4px}
.chip{display:inline-flex;align-items:center;height:38px}
.chip.on{background:${ACCENT};border-color:${ACCENT};color:#fff}
.hero{display:flex;gap:14px;align-items:center;padding:16px;background:#fff}
.hero h2{margin:0;font-size:23px;color:#14201c}
.hero .s{font-size:15px;color:#4f5a56;margin-top:4px}
.about{padding:8px 16px 12px;background:#fff;font-size:15px;color:#33403b}
.acts{display:flex;gap:10px;align-items:center;padding:4px 16px 14px;background:#fff}
.pill{height:42px;padding:0 18px;border-radius:21px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;background:#fff}
.pill.on{background:${ACCENT};color:#fff}
.play{width:56px;height:56px;border-radius:28px;background:${ACCENT};color:#fff;font-size:24px;margin-left:auto}
.erow{display:flex;align-items:center;gap:8px;background:#fff;border-bottom:1px solid #e5eae8;padding:10px 10px 10px 16px}
.erow .ei{flex:1;min-width:0}
.erow .t{font-size:17px;font-weight:bold;color:#14201c}
.erow .s{font-size:14px;color:#5b6360;margin-top:3px}
.erow .bar,.np .bar{height:4px;background:#dfe6e3;border-radius:2px;margin-top:6px}
.erow .bar div,.np .bar div{height:4px;background:${ACCENT};border-radius:2px}
.eacts{display:flex;flex-direction:column;gap:6px;align-items:flex-end;flex:none}
.dl{height:34px;padding:0 12px;border-radius:17px;border:2px solid #b4c2bd;font-size:14px;font-weight:bold;color:#33403b;background:#fff}
.dl.on{border-color:${ACCENT};color:${ACCENT};background:${SOFT}}
.ep{height:34px;padding:0 12px;border-radius:17px;background:${ACCENT};color:#fff;font-size:14px;font-weight:bold}
.np{padding:8px 20px;background:#fff;min-height:calc(100vh - 86px)}
.np .from{text-align:center;font-size:14px;color:#5b6360;padding:6px 0 14px}
.np .cover{margin:0 auto;width:260px;height:260px;font-size:64px;border-radius:12px;box-shadow:0 6px 18px rgba(0,0,0,.2)}
.np .head{display:flex;align-items:center;gap:10px;margin-top:22px}
.np .head .info{flex:1;min-width:0}
.np .title{font-size:24px;font-weight:bold;color:#14201c}
.np .who{font-size:17px;color:#4f5a56;margin-top:4px}
.np .who a{color:#4f5a56}
.heart{width:48px;height:48px;font-size:28px;color:#5b6360;flex:none}
.heart.on{color:${ACCENT}}
.np .times{display:flex;justify-content:space-between;font-size:13px;color:#5b6360;margin-top:4px}
.ctrls{display:flex;justify-content:center;align-items:center;gap:26px;margin:16px 0}
.ctrls button{width:56px;height:56px;font-size:26px;color:#14201c;border-radius:28px}
.ctrls button:disabled{color:#b4c2bd}
.ctrls .pp{width:72px;height:72px;border-radius:36px;background:${ACCENT};color:#fff;font-size:30px}
.tools{display:flex;justify-content:space-around;margin-top:6px}
.tools button,.tools a{display:flex;flex-direction:column;align-items:center;gap:4px;font-size:13px;font-weight:bold;color:#33403b;min-width:88px;padding:6px}
.tools .g{font-size:24px;line-height:26px}
.tools .lit{color:${ACCENT}}
.timer-on{margin:14px 0 0;padding:10px 14px;border-radius:10px;background:${SOFT};color:#0b4a3a;font-size:15px;font-weight:bold;text-align:center}
.sheet .opt{display:flex;align-items:center;gap:14px;width:100%;padding:14px 20px;font-size:18px;text-align:left}
.sheet .opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.sheet .opt.sel .rad{border:7px solid ${ACCENT}}
.sheet .hint{padding:0 20px 6px;font-size:14px;color:#5b6360}
.newbtn{display:flex;align-items:center;justify-content:center;gap:8px;margin:14px 12px;height:52px;border-radius:26px;background:${ACCENT};color:#fff;font-size:18px;font-weight:bold;width:calc(100% - 24px)}
.dialog input{width:100%;height:50px;border:2px solid #b4c2bd;border-radius:10px;padding:0 12px;font-size:18px;outline:none;margin:4px 0 6px}
.dialog input:focus{border-color:${ACCENT}}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin-bottom:6px}
.dialog .acts{padding:0;background:none}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e5eae8;font-size:16px;width:100%;text-align:left}
.kv .k{color:#33403b}
.kv .v{font-weight:bold;color:${ACCENT};text-align:right}
.srow.gone{opacity:.5}
`;

type Tab = 'home' | 'search' | 'library';

const nav = (ctx: AppContext, on: Tab | ''): string =>
  navBar<Tab | ''>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'search', label: 'Search', glyph: '&#8981;', href: `${ctx.base}/search` },
      { id: 'library', label: 'Your Library', glyph: '&#9776;', href: `${ctx.base}/library` },
    ],
    on,
  );

const initialsOf = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
const art = (color: string, label: string, size: number, round = false): string =>
  `<div class="art${round ? ' round' : ''}" style="background:${color};width:${size}px;height:${size}px;font-size:${Math.round(size * 0.36)}px" aria-hidden="true">${label}</div>`;
const albumArt = (a: Album | undefined, size: number): string => art(a?.color ?? ACCENT, esc(initialsOf(a?.title ?? '')), size);
const songArt = (st: TunesState, s: Song, size: number): string => albumArt(albumOf(st, s.albumId), size);
const playlistArt = (p: Playlist, size: number): string => art(p.color, esc(initialsOf(p.name)), size);
const podcastArt = (p: Podcast, size: number): string => art(p.color, esc(initialsOf(p.title)), size);
const artistArt = (a: Artist, size: number): string => art('#3d4a46', esc(initialsOf(a.name)), size, true);
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const playlistLength = (st: TunesState, p: Playlist): string =>
  `${plural(p.songIds.length, 'song')}${p.songIds.length ? `, ${lengthLabel(p.songIds.reduce((n, id) => n + (songOf(st, id)?.seconds ?? 0), 0))}` : ''}`;

/** The playing bar above the bottom tabs: what is loaded, and Play / Pause. */
export function miniPlayer(st: TunesState, ctx: AppContext): string {
  const p = st.player;
  const song = p.kind === 'song' ? songOf(st, p.id) : undefined;
  const ep = p.kind === 'episode' ? episodeOf(st, p.id) : undefined;
  if (!song && !ep) return '<div id="mini" hidden></div>';
  const title = song ? song.title : ep!.title;
  const sub = song ? artistName(st, song) : (podcastOf(st, ep!.podcastId)?.title ?? '');
  const cover = song ? songArt(st, song, 44) : podcastArt(podcastOf(st, ep!.podcastId)!, 44);
  return `<div class="mini" id="mini"><a class="mi" href="${ctx.base}/now" aria-label="Now playing: ${esc(title)}">${cover}<div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div></a><button class="mpp" aria-label="${p.playing ? 'Pause' : 'Play'}" onclick="miniToggle()">${p.playing ? '&#10074;&#10074;' : '&#9654;'}</button></div>`;
}

/** The ⋮ sheet of a song (filled in when it opens) and the client code every page shares. */
const SONG_SHEET = `<div id="sheet" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('sheet')"><div class="sheet" role="menu"><div class="t" id="sheet-t"></div>
<button role="menuitem" id="m-add" onclick="toAdd()">Add to playlist</button>
<button role="menuitem" id="m-like" onclick="likeIt()">Add to Liked Songs</button>
<button role="menuitem" id="m-queue" onclick="queueIt()">Add to queue</button>
<button role="menuitem" id="m-remove" hidden onclick="removeIt()">Remove from this playlist</button>
<button role="menuitem" id="m-album" onclick="location.href=BASE+'/album/'+CUR.album">Go to album</button>
<button role="menuitem" id="m-artist" onclick="location.href=BASE+'/artist/'+CUR.artist">Go to artist</button>
<button role="menuitem" onclick="hide('sheet')">Cancel</button></div></div>`;

const SHARED_JS = `
function say(t){let el=document.getElementById('toast');if(!el){el=document.createElement('div');el.id='toast';el.className='toast';el.setAttribute('role','status');document.body.appendChild(el)}
 el.innerHTML='<span></span>';el.firstChild.textContent=t;el.hidden=false;clearTimeout(window.__st);window.__st=setTimeout(()=>{el.hidden=true},4000)}
function setMini(h){const m=document.getElementById('mini');if(m&&h)m.outerHTML=h}
function miniToggle(){api('toggle',{}).then(r=>{if(r.ok)setMini(r.mini)})}
function playSong(id,ctx){api('play',{kind:'song',id,ctx:ctx||''}).then(r=>{if(!r.ok)return;setMini(r.mini);for(const x of document.querySelectorAll('.srow'))x.classList.toggle('on',Number(x.dataset.id)===id)})}
let CUR={};
function songMenu(b){const row=b.closest('.srow');CUR={id:Number(row.dataset.id),album:row.dataset.album,artist:row.dataset.artistid,liked:row.dataset.liked==='1',pl:Number(row.dataset.pl||0),idx:Number(row.dataset.idx||0)};
 document.getElementById('sheet-t').textContent=row.dataset.song+' · '+row.dataset.artist;document.getElementById('m-like').textContent=CUR.liked?'Remove from Liked Songs':'Add to Liked Songs';
 document.getElementById('m-remove').hidden=!CUR.pl;show('sheet')}
function toAdd(){location.href=BASE+'/song/'+CUR.id+'/add?back='+encodeURIComponent(location.pathname.slice(BASE.length)+location.search)}
function likeIt(){api('like',{id:CUR.id}).then(r=>{if(!r.ok)return;hide('sheet');for(const x of document.querySelectorAll('.srow[data-id="'+CUR.id+'"]'))x.dataset.liked=r.liked?'1':'0';say(r.liked?'Added to Liked Songs':'Removed from Liked Songs')})}
function queueIt(){api('queue',{id:CUR.id}).then(r=>{if(!r.ok)return;hide('sheet');say('Added to queue')})}
function removeIt(){api('remove',{playlist:CUR.pl,song:CUR.id,idx:CUR.idx}).then(r=>{if(!r.ok)return;location.replace(location.href)})}
`;

function page(st: TunesState, ctx: AppContext, o: { title: string; body: string; tab?: Tab | ''; back?: boolean; menu?: readonly (readonly [string, string])[]; actions?: string; script?: string; root?: boolean }): AppResponse {
  const flash = st.flash;
  st.flash = '';
  const menu = o.menu ?? [
    ['Settings', `${ctx.base}/settings`],
    ['Your Library', `${ctx.base}/library`],
  ];
  const body = `${appbar(o.title, { back: o.back ?? false, ...(o.actions ? { actions: o.actions } : {}) })}${o.body}
<div class="spacer"></div>${miniPlayer(st, ctx)}${nav(ctx, o.tab ?? '')}${overflowMenu(menu)}${SONG_SHEET}${flash ? toast(flash) : ''}`;
  return renderPage({ title: o.title, css: CSS, body, ctx, script: SHARED_JS + (o.script ?? ''), root: o.root ?? false });
}

/** A song: tap to play it, ⋮ for its menu. `pl`/`idx`: the own playlist it is shown in (for Remove from this playlist). */
function songRow(st: TunesState, s: Song, o: { n?: number; ctx?: string; pl?: number; idx?: number; showAlbum?: boolean } = {}): string {
  const a = artistName(st, s);
  const album = albumOf(st, s.albumId);
  const on = st.player.kind === 'song' && st.player.id === s.id;
  const sub = o.showAlbum === false ? `${a}` : `Song · ${a} · ${album?.title ?? ''}`;
  return `<div class="srow${on ? ' on' : ''}" data-id="${s.id}" data-song="${esc(s.title)}" data-artist="${esc(a)}" data-album="${s.albumId}" data-artistid="${s.artistId}" data-liked="${st.liked.includes(s.id) ? 1 : 0}"${
    o.pl ? ` data-pl="${o.pl}" data-idx="${o.idx ?? 0}"` : ''
  }><button class="sp" onclick="playSong(${s.id},'${o.ctx ?? ''}')">${o.n !== undefined ? `<span class="n">${o.n}</span>` : songArt(st, s, 46)}<div class="info"><div class="t">${esc(s.title)}</div><div class="s">${esc(sub)} · ${clock(s.seconds)}</div></div></button><button class="more" aria-label="More options for ${esc(s.title)}" onclick="songMenu(this)">&#8942;</button></div>`;
}

const refLink = (st: TunesState, ctx: AppContext, r: { kind: RefKind; id: number }): { href: string; name: string; cover: string; sub: string } | undefined => {
  if (r.kind === 'album') {
    const a = albumOf(st, r.id);
    return a && { href: `${ctx.base}/album/${a.id}`, name: a.title, cover: albumArt(a, 56), sub: `${a.kind} · ${artistOf(st, a.artistId)?.name ?? ''}` };
  }
  if (r.kind === 'playlist') {
    const p = playlistOf(st, r.id);
    return p && { href: `${ctx.base}/playlist/${p.id}`, name: p.name, cover: playlistArt(p, 56), sub: 'Playlist' };
  }
  if (r.kind === 'podcast') {
    const p = podcastOf(st, r.id);
    return p && { href: `${ctx.base}/podcast/${p.id}`, name: p.title, cover: podcastArt(p, 56), sub: `Podcast · ${p.publisher}` };
  }
  const a = artistOf(st, r.id);
  return a && { href: `${ctx.base}/artist/${a.id}`, name: a.name, cover: artistArt(a, 56), sub: 'Artist' };
};

function homePage(st: TunesState, ctx: AppContext): AppResponse {
  const recent = st.recent
    .map((r) => refLink(st, ctx, r))
    .filter((x): x is NonNullable<typeof x> => !!x)
    .slice(0, 6)
    .map((x) => `<a class="tile" href="${x.href}">${x.cover}<span>${esc(x.name)}</span></a>`)
    .join('');
  const mixCards = mixes(st)
    .map((p) => `<a class="card" href="${ctx.base}/playlist/${p.id}">${playlistArt(p, 96)}<div class="t">${esc(p.name)}</div><div class="s">${esc(p.description)}</div></a>`)
    .join('');
  const shows = st.podcasts
    .filter((p) => !p.followed)
    .map((p) => `<a class="card" href="${ctx.base}/podcast/${p.id}">${podcastArt(p, 96)}<div class="t">${esc(p.title)}</div><div class="s">${esc(p.publisher)} · ${esc(p.category)}</div></a>`)
    .join('');
  const releases = [...st.albums]
    .sort((a, b) => b.year - a.year || a.id - b.id)
    .slice(0, 4)
    .map((a) => `<a class="card" href="${ctx.base}/album/${a.id}">${albumArt(a, 96)}<div class="t">${esc(a.title)}</div><div class="s">${esc(a.kind)} · ${esc(artistOf(st, a.artistId)?.name ?? '')}</div></a>`)
    .join('');
  const body = `<div class="hello">Good morning, ${esc(USER.split(' ')[0] ?? '')}</div>
<div class="section">Recently played</div><div class="grid2">${recent}</div>
<div class="section">Made for you</div><div class="cards">${mixCards}</div>
<div class="section">Shows you might like</div><div class="cards">${shows}</div>
<div class="section">New releases</div><div class="cards">${releases}</div>`;
  return page(st, ctx, {
    title: BRAND,
    body,
    tab: 'home',
    root: true,
    actions: `<a class="icon" aria-label="Settings" href="${ctx.base}/settings">&#9881;</a>`,
  });
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[“”"'’.,!?&()-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const matches = (hay: string, q: string): boolean => {
  const h = norm(hay);
  return norm(q)
    .split(' ')
    .filter(Boolean)
    .every((w) => h.includes(w));
};

function searchPage(st: TunesState, ctx: AppContext, q: string, genre: string): AppResponse {
  const box = `<form class="find" method="get" action="${ctx.base}/search"><input id="q" name="q" type="search" autocomplete="off" placeholder="What do you want to listen to?" value="${esc(q)}"><button type="submit" id="go">Search</button></form>`;
  let list: string;
  const byPlays = (a: Song, b: Song): number => b.plays - a.plays || a.id - b.id;
  if (genre) {
    if (genre === 'Podcasts') {
      list = `<div class="section">Podcasts</div>${st.podcasts.map((p) => podcastRow(ctx, p)).join('')}`;
    } else {
      const songs = st.songs.filter((s) => s.genre === genre).sort(byPlays);
      list = `<div class="section">${esc(genre)}</div>${songs.map((s) => songRow(st, s)).join('') || '<div class="empty">Nothing here yet</div>'}`;
    }
  } else if (!norm(q)) {
    list = `<div class="section">Browse all</div><div class="genres">${[...GENRES, ['Podcasts', '#e67700'] as const]
      .map(([g, c]) => `<a class="genre" style="background:${c}" href="${ctx.base}/search?genre=${encodeURIComponent(g)}">${esc(g)}</a>`)
      .join('')}</div>`;
  } else {
    const songs = st.songs.filter((s) => matches(`${s.title} ${artistName(st, s)} ${albumOf(st, s.albumId)?.title ?? ''}`, q)).sort(byPlays);
    const artists = st.artists.filter((a) => matches(a.name, q));
    const albums = st.albums.filter((a) => matches(`${a.title} ${artistOf(st, a.artistId)?.name ?? ''}`, q));
    const lists = st.playlists.filter((p) => !p.deleted && matches(p.name, q));
    const pods = st.podcasts.filter((p) => matches(`${p.title} ${p.publisher}`, q));
    const eps = st.episodes.filter((e) => matches(e.title, q));
    const sec = (name: string, rows: string[]): string => (rows.length ? `<div class="section">${name}</div>${rows.join('')}` : '');
    const all =
      sec(
        'Songs',
        songs.map((s) => songRow(st, s)),
      ) +
      sec(
        'Artists',
        artists.map((a) => `<a class="lrow" href="${ctx.base}/artist/${a.id}">${artistArt(a, 52)}<div class="info"><div class="t">${esc(a.name)}</div><div class="s">Artist</div></div></a>`),
      ) +
      sec(
        'Albums',
        albums.map(
          (a) => `<a class="lrow" href="${ctx.base}/album/${a.id}">${albumArt(a, 52)}<div class="info"><div class="t">${esc(a.title)}</div><div class="s">${esc(a.kind)} · ${esc(artistOf(st, a.artistId)?.name ?? '')} · ${a.year}</div></div></a>`,
        ),
      ) +
      sec(
        'Playlists',
        lists.map((p) => playlistRow(ctx, p)),
      ) +
      sec(
        'Podcasts',
        pods.map((p) => podcastRow(ctx, p)),
      ) +
      sec(
        'Episodes',
        eps.map((e) => `<a class="lrow" href="${ctx.base}/episode/${e.id}" data-episode="${esc(e.title)}">${podcastArt(podcastOf(st, e.podcastId)!, 52)}<div class="info"><div class="t">${esc(e.title)}</div><div class="s">Episode · ${esc(podcastOf(st, e.podcastId)?.title ?? '')}</div></div></a>`),
      );
    list = `<div class="sub">Results for “${esc(q)}”</div>${all || `<div class="empty">No results found for “${esc(q)}”. Check the spelling, or try fewer words.</div>`}`;
  }
  return page(st, ctx, { title: 'Search', body: box + list, tab: 'search', back: !!genre || !!norm(q), root: !genre && !norm(q) });
}

function playlistRow(ctx: AppContext, p: Playlist): string {
  return `<a class="lrow" href="${ctx.base}/playlist/${p.id}" data-playlist="${esc(p.name)}">${playlistArt(p, 52)}<div class="info"><div class="t">${esc(p.name)}</div><div class="s">Playlist · ${esc(p.mine ? USER : BRAND)} · ${plural(p.songIds.length, 'song')}${p.downloaded ? ' · &#8615; Downloaded' : ''}</div></div></a>`;
}
function podcastRow(ctx: AppContext, p: Podcast): string {
  return `<a class="lrow" href="${ctx.base}/podcast/${p.id}" data-podcast="${esc(p.title)}">${podcastArt(p, 52)}<div class="info"><div class="t">${esc(p.title)}</div><div class="s">Podcast · ${esc(p.publisher)}${p.followed ? ' · Following' : ''}</div></div></a>`;
}

const NEW_DIALOG = (st: TunesState, song: number): string => `<div id="newpl" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Name your playlist"><h2>Name your playlist</h2>
<input id="plname" type="text" maxlength="60" autocomplete="off" placeholder="My playlist #${myPlaylists(st).length + 1}"><div class="err" id="nerr"></div>
<div class="acts"><button onclick="hide('newpl')">Cancel</button><button id="create" onclick="createPl()">Create</button></div></div></div>
<script>let cbusy=false;function newPl(){document.getElementById('nerr').textContent='';show('newpl');document.getElementById('plname').focus()}
function createPl(){if(cbusy)return;cbusy=true;api('create',{name:document.getElementById('plname').value,song:${song}}).then(r=>{cbusy=false;if(r.ok){location.replace(BASE+'/playlist/'+r.id);return}document.getElementById('nerr').textContent=r.error||'Could not create the playlist'})}</script>`;

function libraryPage(st: TunesState, ctx: AppContext, f: string): AppResponse {
  const chips = [
    ['', 'All'],
    ['playlists', 'Playlists'],
    ['podcasts', 'Podcasts'],
    ['artists', 'Artists'],
  ]
    .map(([k, l]) => `<a class="chip${k === f ? ' on' : ''}" href="${ctx.base}/library${k ? `?f=${k}` : ''}">${l}</a>`)
    .join('');
  const dlEps = st.episodes.filter((e) => e.downloaded).length;
  const dlLists = myPlaylists(st).filter((p) => p.downloaded).length;
  const rows: string[] = [];
  if (!f || f === 'playlists') {
    rows.push(
      `<a class="lrow" href="${ctx.base}/liked">${art('#5f3dc4', '&#9829;', 52)}<div class="info"><div class="t">Liked Songs</div><div class="s">Playlist · ${plural(st.liked.length, 'song')}</div></div></a>`,
      `<a class="lrow" href="${ctx.base}/downloads">${art(ACCENT, '&#8615;', 52)}<div class="info"><div class="t">Downloaded</div><div class="s">${plural(dlEps, 'episode')} · ${plural(dlLists, 'playlist')}</div></div></a>`,
      ...myPlaylists(st).map((p) => playlistRow(ctx, p)),
    );
  }
  if (!f || f === 'podcasts') rows.push(...st.podcasts.filter((p) => p.followed).map((p) => podcastRow(ctx, p)));
  if (!f || f === 'artists')
    rows.push(
      ...st.followedArtists
        .map((id) => artistOf(st, id))
        .filter((a): a is Artist => !!a)
        .map((a) => `<a class="lrow" href="${ctx.base}/artist/${a.id}">${artistArt(a, 52)}<div class="info"><div class="t">${esc(a.name)}</div><div class="s">Artist</div></div></a>`),
    );
  const body = `<div class="chips">${chips}</div>${rows.join('') || '<div class="empty">Nothing followed yet</div>'}${NEW_DIALOG(st, 0)}`;
  return page(st, ctx, {
    title: 'Your Library',
    body,
    tab: 'library',
    root: true,
    actions: `<button class="icon" aria-label="Create playlist" onclick="newPl()">&#65291;</button>`,
  });
}

function likedPage(st: TunesState, ctx: AppContext): AppResponse {
  const songs = st.liked.map((id) => songOf(st, id)).filter((s): s is Song => !!s);
  const body = `<div class="hero">${art('#5f3dc4', '&#9829;', 88)}<div><h2>Liked Songs</h2><div class="s">${esc(USER)} · ${plural(songs.length, 'song')}</div></div></div>
${songs.map((s) => songRow(st, s, { ctx: 'liked:0' })).join('') || '<div class="empty">Songs you like will appear here. Tap ⋮ on a song and Add to Liked Songs.</div>'}`;
  return page(st, ctx, { title: 'Liked Songs', body, tab: 'library', back: true });
}

function downloadsPage(st: TunesState, ctx: AppContext): AppResponse {
  const eps = st.episodes.filter((e) => e.downloaded);
  const lists = myPlaylists(st).filter((p) => p.downloaded);
  const body = `<div class="sub">Downloaded music and episodes play without a connection.</div>
<div class="section">Playlists</div>${lists.map((p) => playlistRow(ctx, p)).join('') || '<div class="empty">No downloaded playlists</div>'}
<div class="section">Episodes</div>${
    eps
      .map((e) => {
        const p = podcastOf(st, e.podcastId)!;
        return `<a class="lrow" href="${ctx.base}/episode/${e.id}" data-episode="${esc(e.title)}">${podcastArt(p, 52)}<div class="info"><div class="t">${esc(e.title)}</div><div class="s">${esc(p.title)} · Episode ${e.number} · ${e.minutes} min</div></div></a>`;
      })
      .join('') || '<div class="empty">No downloaded episodes</div>'
  }`;
  return page(st, ctx, { title: 'Downloaded', body, tab: 'library', back: true });
}

function albumPage(st: TunesState, ctx: AppContext, a: Album): AppResponse {
  const artist = artistOf(st, a.artistId)!;
  const songs = st.songs.filter((s) => s.albumId === a.id).sort((x, y) => x.track - y.track);
  const total = songs.reduce((n, s) => n + s.seconds, 0);
  const body = `<div class="hero">${albumArt(a, 96)}<div><h2>${esc(a.title)}</h2><div class="s"><a href="${ctx.base}/artist/${artist.id}" style="color:${ACCENT};font-weight:bold">${esc(artist.name)}</a></div><div class="s">${esc(a.kind)} · ${a.year} · ${plural(songs.length, 'song')}, ${lengthLabel(total)}</div></div></div>
<div class="acts"><button class="play" aria-label="Play" onclick="playSong(${songs[0]?.id ?? 0},'album:${a.id}')">&#9654;</button></div>
${songs.map((s) => songRow(st, s, { n: s.track, ctx: `album:${a.id}`, showAlbum: false })).join('')}
<div class="sub">Released ${a.year} · &#8471; ${a.year} ${esc(artist.name)}</div>`;
  return page(st, ctx, { title: 'Album', body, back: true });
}

function artistPage(st: TunesState, ctx: AppContext, a: Artist): AppResponse {
  const following = st.followedArtists.includes(a.id);
  const popular = st.songs.filter((s) => s.artistId === a.id).sort((x, y) => y.plays - x.plays);
  const albums = st.albums.filter((x) => x.artistId === a.id);
  const body = `<div class="hero">${artistArt(a, 96)}<div><h2>${esc(a.name)}</h2><div class="s">${compact(a.listeners)} monthly listeners</div></div></div>
<div class="acts"><button class="pill${following ? ' on' : ''}" id="follow-artist" onclick="fa()">${following ? 'Following' : 'Follow'}</button><button class="play" aria-label="Play" onclick="playSong(${popular[0]?.id ?? 0},'')">&#9654;</button></div>
<div class="section">Popular</div>${popular.map((s, i) => songRow(st, s, { n: i + 1 })).join('')}
<div class="section">Discography</div>${albums.map((x) => `<a class="lrow" href="${ctx.base}/album/${x.id}">${albumArt(x, 52)}<div class="info"><div class="t">${esc(x.title)}</div><div class="s">${x.year} · ${esc(x.kind)}</div></div></a>`).join('')}
<div class="section">About</div><div class="about">${esc(a.bio)}</div>`;
  const script = `function fa(){api('follow-artist',{id:${a.id}}).then(r=>{if(!r.ok)return;const b=document.getElementById('follow-artist');b.textContent=r.on?'Following':'Follow';b.classList.toggle('on',r.on);say(r.on?'Following ${esc(a.name).replace(/'/g, "\\'")}':'Unfollowed')})}`;
  return page(st, ctx, { title: 'Artist', body, back: true, script });
}

function playlistPage(st: TunesState, ctx: AppContext, p: Playlist): AppResponse {
  const songs = p.songIds.map((id) => songOf(st, id)).filter((s): s is Song => !!s);
  const rows = p.songIds
    .map((id, i) => {
      const s = songOf(st, id);
      return s ? songRow(st, s, { ctx: `playlist:${p.id}`, ...(p.mine ? { pl: p.id, idx: i } : {}) }) : '';
    })
    .join('');
  const owner = p.mine ? `Playlist by ${USER}` : `Playlist by ${BRAND} · Made for ${USER}`;
  const empty = p.mine
    ? `<div class="empty">Let's find something for your playlist.<br><a class="pill" style="display:inline-block;line-height:38px;margin-top:14px" href="${ctx.base}/search">Add songs</a></div>`
    : '<div class="empty">This playlist is empty</div>';
  const body = `<div class="hero">${playlistArt(p, 96)}<div><h2 id="pl-name">${esc(p.name)}</h2><div class="s">${esc(owner)}</div><div class="s">${esc(playlistLength(st, p))}</div></div></div>
${p.description ? `<div class="about">${esc(p.description)}</div>` : ''}
<div class="acts">${p.mine ? `<button class="pill${p.downloaded ? ' on' : ''}" id="pl-dl" onclick="pdl()">${p.downloaded ? '&#10003; Downloaded' : '&#8615; Download'}</button>` : ''}${songs.length ? `<button class="play" aria-label="Play" onclick="playSong(${songs[0]!.id},'playlist:${p.id}')">&#9654;</button>` : ''}</div>
${rows || empty}
${p.mine ? confirmDialog('del', 'Delete playlist?', `This will delete ${p.name} from Your Library.`, 'Delete', 'delPl()') : ''}`;
  const script = p.mine
    ? `function pdl(){const b=document.getElementById('pl-dl');const on=!b.classList.contains('on');api('pl-download',{playlist:${p.id},on}).then(r=>{if(!r.ok)return;b.classList.toggle('on',on);b.innerHTML=on?'&#10003; Downloaded':'&#8615; Download';say(on?'Downloading ${esc(p.name).replace(/'/g, "\\'")}':'Download removed')})}
function delPl(){api('delete',{playlist:${p.id}}).then(r=>{if(r.ok)location.replace(BASE+'/library')})}`
    : '';
  const menu: (readonly [string, string])[] = p.mine
    ? [
        ['Add songs', `${ctx.base}/search`],
        ['Delete playlist', "js:document.getElementById('overflow').hidden=true;show('del')"],
      ]
    : [['Your Library', `${ctx.base}/library`]];
  return page(st, ctx, { title: p.name, body, back: true, tab: 'library', script, menu });
}

/** Add to playlist: New playlist, then the member's own playlists (one that already has the song asks first). */
function addPage(st: TunesState, ctx: AppContext, s: Song, back: string): AppResponse {
  const rows = myPlaylists(st)
    .map((p) => {
      const has = p.songIds.includes(s.id);
      return `<button class="lrow" style="width:100%;text-align:left" data-playlist="${esc(p.name)}" data-id="${p.id}" data-has="${has ? 1 : 0}" onclick="addTo(this)">${playlistArt(p, 52)}<div class="info"><div class="t">${esc(p.name)}</div><div class="s">${plural(p.songIds.length, 'song')}</div></div>${has ? '<span class="tag">&#10003; Added</span>' : ''}</button>`;
    })
    .join('');
  const body = `<div class="hero">${songArt(st, s, 64)}<div><h2 style="font-size:20px">${esc(s.title)}</h2><div class="s">${esc(artistName(st, s))}</div></div></div>
<button class="newbtn" id="new-pl" onclick="newPl()">&#65291; New playlist</button>
<div class="section">Your playlists</div>${rows || '<div class="empty">You have no playlists yet</div>'}
<div id="dup" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Already added"><h2>Already added</h2><p id="dup-text"></p>
<div class="acts"><button id="dup-no" onclick="hide('dup')">Don't add</button><button id="dup-ok" onclick="addNow(PICK,true)">Add anyway</button></div></div></div>${NEW_DIALOG(st, s.id)}`;
  const script = `const BACK=${JSON.stringify(back)};let PICK=null;
function addTo(el){PICK=el;if(el.dataset.has==='1'){document.getElementById('dup-text').textContent='This is already in your '+el.dataset.playlist+' playlist.';show('dup');return}addNow(el,false)}
let abusy=false;function addNow(el,force){if(abusy)return;abusy=true;api('add',{song:${s.id},playlist:Number(el.dataset.id),force}).then(r=>{abusy=false;if(r.ok){location.replace(BASE+BACK);return}say(r.error||'Could not add the song')})}`;
  return page(st, ctx, { title: 'Add to playlist', body, back: true, script, menu: [['Your Library', `${ctx.base}/library`]] });
}

function podcastPage(st: TunesState, ctx: AppContext, p: Podcast): AppResponse {
  const eps = episodesOf(st, p.id);
  const rows = eps.map((e) => episodeRow(ctx, e)).join('');
  const body = `<div class="hero">${podcastArt(p, 96)}<div><h2>${esc(p.title)}</h2><div class="s">${esc(p.publisher)}</div><div class="s">${esc(p.category)} · ${plural(eps.length, 'episode')}</div></div></div>
<div class="acts"><button class="pill${p.followed ? ' on' : ''}" id="follow-btn" onclick="follow()">${p.followed ? 'Following' : 'Follow'}</button></div>
<div class="about">${esc(p.description)}</div>
<div class="section">Episodes</div>${rows}
${confirmDialog('undl', 'Remove this download?', "You won't be able to play this episode offline.", 'Remove', 'undl()')}`;
  const script = `function follow(){api('follow',{podcast:${p.id}}).then(r=>{if(!r.ok)return;const b=document.getElementById('follow-btn');b.textContent=r.followed?'Following':'Follow';b.classList.toggle('on',r.followed);say(r.followed?'Added to Your Library':'Removed from Your Library')})}
${DOWNLOAD_JS}`;
  return page(st, ctx, { title: 'Podcast', body, back: true, script });
}

const DOWNLOAD_JS = `let DL=null;
function dlBtn(b,on){b.classList.toggle('on',on);b.innerHTML=on?'&#10003; Downloaded':'&#8615; Download';b.setAttribute('aria-label',on?'Downloaded':'Download')}
function dl(b){DL=b;if(b.classList.contains('on')){show('undl');return}api('download',{episode:Number(b.dataset.id),on:true}).then(r=>{if(!r.ok)return;dlBtn(b,true);say('Downloaded')})}
function undl(){api('download',{episode:Number(DL.dataset.id),on:false}).then(r=>{if(!r.ok)return;hide('undl');dlBtn(DL,false);say('Download removed')})}
function playEp(id){api('play',{kind:'episode',id}).then(r=>{if(r.ok)setMini(r.mini)})}`;

function episodeRow(ctx: AppContext, e: Episode): string {
  const left = e.progress > 0 ? ` · ${Math.max(1, Math.round(e.minutes * (1 - e.progress)))} min left` : '';
  return `<div class="erow" data-episode="${esc(e.title)}" data-n="${e.number}"><a class="ei" href="${ctx.base}/episode/${e.id}"><div class="t">${esc(e.title)}</div><div class="s">Episode ${e.number} · ${esc(e.date)} · ${e.minutes} min${left}</div>${
    e.progress > 0 ? `<div class="bar"><div style="width:${Math.round(e.progress * 100)}%"></div></div>` : ''
  }</a><div class="eacts"><button class="dl${e.downloaded ? ' on' : ''}" data-id="${e.id}" aria-label="${e.downloaded ? 'Downloaded' : 'Download'}" onclick="dl(this)">${e.downloaded ? '&#10003; Downloaded' : '&#8615; Download'}</button><button class="ep" onclick="playEp(${e.id})">&#9654; Play</button></div></div>`;
}

function episodePage(st: TunesState, ctx: AppContext, e: Episode): AppResponse {
  const p = podcastOf(st, e.podcastId)!;
  const body = `<div class="hero">${podcastArt(p, 88)}<div><h2 style="font-size:21px">${esc(e.title)}</h2><div class="s"><a href="${ctx.base}/podcast/${p.id}" style="color:${ACCENT};font-weight:bold">${esc(p.title)}</a></div><div class="s">Episode ${e.number} · ${esc(e.date)} · ${e.minutes} min</div></div></div>
<div class="acts"><button class="dl${e.downloaded ? ' on' : ''}" id="ep-dl" data-id="${e.id}" aria-label="${e.downloaded ? 'Downloaded' : 'Download'}" onclick="dl(this)" style="height:42px;font-size:16px">${
    e.downloaded ? '&#10003; Downloaded' : '&#8615; Download'
  }</button><button class="play" aria-label="Play" onclick="playEp(${e.id})">&#9654;</button></div>
<div class="section">About this episode</div><div class="about">${esc(e.description)}</div>
<a class="lrow" href="${ctx.base}/podcast/${p.id}">${podcastArt(p, 44)}<div class="info"><div class="t">More episodes</div><div class="s">${esc(p.title)}</div></div></a>
${confirmDialog('undl', 'Remove this download?', "You won't be able to play this episode offline.", 'Remove', 'undl()')}`;
  return page(st, ctx, { title: 'Episode', body, back: true, script: DOWNLOAD_JS });
}

const timerText = (v: string): string => (v === 'End of track' ? 'Sleep timer on · stops at the end of this track' : `Sleep timer on · stops in ${v}`);

function nowPage(st: TunesState, ctx: AppContext): AppResponse {
  const p = st.player;
  const song = p.kind === 'song' ? songOf(st, p.id) : undefined;
  const ep = p.kind === 'episode' ? episodeOf(st, p.id) : undefined;
  if (!song && !ep) return page(st, ctx, { title: 'Now playing', body: '<div class="empty">Nothing is playing</div>', back: true });
  const total = song ? song.seconds : ep!.minutes * 60;
  const pos = Math.min(p.position, total - 1);
  let from = '';
  if (p.context?.kind === 'album') from = `Playing from album · ${albumOf(st, p.context.id)?.title ?? ''}`;
  else if (p.context?.kind === 'playlist') from = `Playing from playlist · ${playlistOf(st, p.context.id)?.name ?? ''}`;
  else if (p.context?.kind === 'liked') from = 'Playing from Liked Songs';
  else if (ep) from = `Playing podcast · ${podcastOf(st, ep.podcastId)?.title ?? ''}`;
  else from = 'Playing song';
  const cover = song ? albumArt(albumOf(st, song.albumId), 260) : podcastArt(podcastOf(st, ep!.podcastId)!, 260);
  const title = song ? song.title : ep!.title;
  const who = song
    ? `<a href="${ctx.base}/artist/${song.artistId}">${esc(artistName(st, song))}</a>`
    : `<a href="${ctx.base}/podcast/${ep!.podcastId}">${esc(podcastOf(st, ep!.podcastId)?.title ?? '')}</a>`;
  const liked = !!song && st.liked.includes(song.id);
  const idx = song && p.context ? p.context.songIds.indexOf(song.id) : -1;
  const canPrev = !!song && (idx > 0 || pos > 3);
  const canNext = !!song && (p.queue.length > 0 || (p.context !== null && idx >= 0 && idx < p.context.songIds.length - 1));
  const opts = ['Off', ...SLEEP_OPTIONS]
    .map((o) => `<button class="opt${o === st.sleepTimer ? ' sel' : ''}" role="radio" aria-checked="${o === st.sleepTimer}" data-v="${esc(o)}" onclick="setTimer(this)"><span class="rad"></span>${esc(o)}</button>`)
    .join('');
  const on = st.sleepTimer !== 'Off';
  const body = `<div class="np"><div class="from">${esc(from)}</div>${cover.replace('class="art"', 'class="art cover"')}
<div class="head"><div class="info"><div class="title" id="np-title">${esc(title)}</div><div class="who" id="np-who">${who}</div></div>${
    song ? `<button class="heart${liked ? ' on' : ''}" id="like" aria-label="${liked ? 'Remove from Liked Songs' : 'Add to Liked Songs'}" onclick="like()">${liked ? '&#9829;' : '&#9825;'}</button>` : ''
  }</div>
<div class="bar"><div style="width:${Math.round((100 * pos) / total)}%"></div></div><div class="times"><span>${clock(pos)}</span><span>${clock(total)}</span></div>
<div class="ctrls">${
    song
      ? `<button id="prev" aria-label="Previous" onclick="skip(-1)"${canPrev ? '' : ' disabled'}>&#10074;&#9664;</button>`
      : `<button id="prev" aria-label="Back 15 seconds" onclick="skip(-1)">&#8634;</button>`
  }<button class="pp" id="pp" aria-label="${p.playing ? 'Pause' : 'Play'}" onclick="pp()">${p.playing ? '&#10074;&#10074;' : '&#9654;'}</button>${
    song ? `<button id="next" aria-label="Next" onclick="skip(1)"${canNext ? '' : ' disabled'}>&#9654;&#10074;</button>` : `<button id="next" aria-label="Forward 15 seconds" onclick="skip(1)">&#8635;</button>`
  }</div>
<div class="tools"><button id="timer-btn" class="${on ? 'lit' : ''}" onclick="show('timer')"><span class="g" aria-hidden="true">&#9790;</span>Sleep timer</button>${
    song
      ? `<button id="np-add" onclick="location.href=BASE+'/song/${song.id}/add?back=%2Fnow'"><span class="g" aria-hidden="true">&#65291;</span>Add to playlist</button>`
      : `<a href="${ctx.base}/episode/${ep!.id}"><span class="g" aria-hidden="true">&#8505;</span>Episode details</a>`
  }</div>
<div class="timer-on" id="timer-on"${on ? '' : ' hidden'}>${esc(on ? timerText(st.sleepTimer) : '')}</div></div>
<div id="timer" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('timer')"><div class="sheet" role="dialog" aria-label="Sleep timer"><div class="t">Sleep timer</div><div class="hint">Stop audio in</div><div id="timer-opts" role="radiogroup">${opts}</div></div></div>`;
  const script = `function pp(){api('toggle',{}).then(r=>{if(!r.ok)return;const b=document.getElementById('pp');b.innerHTML=r.playing?'&#10074;&#10074;':'&#9654;';b.setAttribute('aria-label',r.playing?'Pause':'Play')})}
function skip(d){api('skip',{dir:d}).then(r=>{if(r.ok)location.replace(location.href)})}
function like(){api('like',{id:${song?.id ?? 0}}).then(r=>{if(!r.ok)return;const b=document.getElementById('like');b.classList.toggle('on',r.liked);b.innerHTML=r.liked?'&#9829;':'&#9825;';b.setAttribute('aria-label',r.liked?'Remove from Liked Songs':'Add to Liked Songs');say(r.liked?'Added to Liked Songs':'Removed from Liked Songs')})}
function setTimer(el){const v=el.dataset.v;api('timer',{v}).then(r=>{if(!r.ok)return;for(const o of document.querySelectorAll('#timer-opts .opt')){const s=o===el;o.classList.toggle('sel',s);o.setAttribute('aria-checked',String(s))}hide('timer');
 const t=document.getElementById('timer-on');t.hidden=v==='Off';t.textContent=r.text||'';document.getElementById('timer-btn').classList.toggle('lit',v!=='Off');say(v==='Off'?'Sleep timer turned off':'Sleep timer set')})}`;
  const menu: (readonly [string, string])[] = song
    ? [
        ['Go to album', `${ctx.base}/album/${song.albumId}`],
        ['Go to artist', `${ctx.base}/artist/${song.artistId}`],
        ['Settings', `${ctx.base}/settings`],
      ]
    : [
        ['Go to podcast', `${ctx.base}/podcast/${ep!.podcastId}`],
        ['Settings', `${ctx.base}/settings`],
      ];
  const flash = st.flash;
  st.flash = '';
  const full = `${appbar('Now playing', { back: true })}${body}${overflowMenu(menu)}${flash ? toast(flash) : ''}`;
  return renderPage({ title: 'Now playing', css: CSS, body: full, ctx, script: SHARED_JS + script });
}

const SETTING_PICKERS: readonly (readonly [keyof Settings, string, readonly string[]])[] = [
  ['wifiQuality', 'Wi-Fi streaming', QUALITIES],
  ['cellQuality', 'Cellular streaming', QUALITIES],
  ['downloadQuality', 'Download quality', DOWNLOAD_QUALITIES],
  ['crossfade', 'Crossfade', CROSSFADES],
];
const SETTING_SWITCHES: readonly (readonly [keyof Settings, string, string])[] = [
  ['cellularDownloads', 'Download using cellular', 'Uses your data plan'],
  ['gapless', 'Gapless playback', 'No silence between songs'],
  ['autoplay', 'Autoplay', 'Keep listening to similar songs when your music ends'],
  ['normalize', 'Normalize volume', 'Play every song at the same loudness'],
];

function settingsPage(st: TunesState, ctx: AppContext): AppResponse {
  const s = st.settings;
  const picker = (k: keyof Settings): string => {
    const [, label] = SETTING_PICKERS.find(([x]) => x === k)!;
    return `<button class="kv" id="set-${k}" onclick="show('pick-${k}')"><span class="k">${esc(label)}</span><span class="v">${esc(String(s[k]))}</span></button>`;
  };
  const sw = (k: keyof Settings): string => {
    const [, label, sub] = SETTING_SWITCHES.find(([x]) => x === k)!;
    const on = s[k] === true;
    return `<button class="row" role="switch" aria-checked="${on}" data-k="${k}" onclick="sw(this)"><div class="info"><div class="t">${esc(label)}</div><div class="s">${esc(sub)}</div></div><span class="switch${on ? ' on' : ''}"></span></button>`;
  };
  const dlCount = st.episodes.filter((e) => e.downloaded).length + myPlaylists(st).filter((p) => p.downloaded).length;
  const body = `<div class="section">Account</div>
<div class="kv"><span class="k">${esc(USER)}</span><span class="v" style="color:#33403b;font-weight:normal">${esc(USER_EMAIL)}</span></div>
<div class="kv"><span class="k">Plan</span><span class="v">${esc(PLAN)}</span></div>
<div class="section">Audio quality</div>${picker('wifiQuality')}${picker('cellQuality')}${picker('downloadQuality')}${sw('cellularDownloads')}
<div class="section">Playback</div>${picker('crossfade')}${sw('gapless')}${sw('autoplay')}${sw('normalize')}
<div class="section">Storage</div><div class="kv"><span class="k">Downloads</span><span class="v" style="color:#33403b">${plural(dlCount, 'item')}</span></div>
<button class="kv" id="clear-dl" onclick="show('clear')"><span class="k" style="color:#c92a2a;font-weight:bold">Remove all downloads</span></button>
<div class="section">About</div><div class="kv"><span class="k">Version</span><span class="v" style="color:#33403b;font-weight:normal">8.4.12</span></div>
${SETTING_PICKERS.map(([k, label, opts]) => pickerDialog(`pick-${k}`, label, opts, String(s[k]), `pick_${k}`)).join('')}
${confirmDialog('clear', 'Remove all downloads?', 'Downloaded playlists and episodes will only play with a connection.', 'Remove', 'clearDl()')}`;
  const script = `${SETTING_PICKERS.map(([k]) => `function pick_${k}(v){api('setting',{key:'${k}',value:v}).then(r=>{if(r.ok)location.replace(location.pathname+'?t=1')})}`).join('\n')}
function sw(el){const on=el.getAttribute('aria-checked')!=='true';api('setting',{key:el.dataset.k,value:on}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(on));el.querySelector('.switch').classList.toggle('on',on)})}
function clearDl(){api('clear-downloads',{}).then(r=>{if(r.ok)location.replace(location.pathname)})}`;
  return page(st, ctx, { title: 'Settings', body, back: true, script, menu: [['Your Library', `${ctx.base}/library`]] });
}

/** Moves a thing to the front of Recently played. */
function touch(st: TunesState, kind: RefKind, id: number): void {
  st.recent = [{ kind, id }, ...st.recent.filter((r) => !(r.kind === kind && r.id === id))].slice(0, 8);
}

function contextOf(st: TunesState, raw: string): Player['context'] {
  const [k, v] = raw.split(':');
  const id = Number(v);
  if (k === 'album' && albumOf(st, id))
    return {
      kind: 'album',
      id,
      songIds: st.songs
        .filter((s) => s.albumId === id)
        .sort((a, b) => a.track - b.track)
        .map((s) => s.id),
    };
  if (k === 'playlist' && playlistOf(st, id)) return { kind: 'playlist', id, songIds: [...playlistOf(st, id)!.songIds] };
  if (k === 'liked') return { kind: 'liked', id: 0, songIds: [...st.liked] };
  return null;
}

function handleApi(st: TunesState, ctx: AppContext, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  const mini = (): string => miniPlayer(st, ctx);
  switch (action) {
    case 'play': {
      if (b.kind === 'episode') {
        const e = episodeOf(st, Number(b.id));
        if (!e) return json({ ok: false, error: 'Episode not found' }, 404);
        st.player = { kind: 'episode', id: e.id, playing: true, position: Math.round(e.minutes * 60 * e.progress), context: null, queue: st.player.queue };
        touch(st, 'podcast', e.podcastId);
        return json({ ok: true, mini: mini() });
      }
      const s = songOf(st, Number(b.id));
      if (!s) return json({ ok: false, error: 'Song not found' }, 404);
      const context = contextOf(st, str(b.ctx));
      st.player = { kind: 'song', id: s.id, playing: true, position: 0, context, queue: st.player.queue };
      if (context?.kind === 'playlist') touch(st, 'playlist', context.id);
      else touch(st, 'album', s.albumId);
      return json({ ok: true, mini: mini() });
    }
    case 'toggle':
      st.player.playing = !st.player.playing;
      return json({ ok: true, playing: st.player.playing, mini: mini() });
    case 'skip': {
      const p = st.player;
      const dir = Number(b.dir) < 0 ? -1 : 1;
      if (p.kind === 'episode') {
        const e = episodeOf(st, p.id);
        p.position = Math.max(0, Math.min((e?.minutes ?? 1) * 60 - 1, p.position + dir * 15));
        return json({ ok: true });
      }
      if (dir > 0 && p.queue.length) {
        p.id = p.queue.shift()!;
        p.position = 0;
        return json({ ok: true });
      }
      const list = p.context?.songIds ?? [];
      const i = list.indexOf(p.id);
      if (dir < 0 && (p.position > 3 || i <= 0)) {
        p.position = 0;
        return json({ ok: true });
      }
      const next = list[i + dir];
      if (next === undefined) return json({ ok: false, error: 'Nothing to skip to' }, 409);
      p.id = next;
      p.position = 0;
      return json({ ok: true });
    }
    case 'like': {
      const s = songOf(st, Number(b.id));
      if (!s) return json({ ok: false, error: 'Song not found' }, 404);
      const liked = !st.liked.includes(s.id);
      st.liked = liked ? [s.id, ...st.liked] : st.liked.filter((x) => x !== s.id);
      return json({ ok: true, liked });
    }
    case 'queue': {
      const s = songOf(st, Number(b.id));
      if (!s) return json({ ok: false, error: 'Song not found' }, 404);
      st.player.queue.push(s.id);
      return json({ ok: true });
    }
    case 'add': {
      const s = songOf(st, Number(b.song));
      const p = playlistOf(st, Number(b.playlist));
      if (!s || !p || !p.mine) return json({ ok: false, error: 'You can only add songs to your own playlists' }, 409);
      if (p.songIds.includes(s.id) && b.force !== true) return json({ ok: false, dup: true, error: `Already in ${p.name}` });
      p.songIds.push(s.id);
      st.flash = `Added to ${p.name}`;
      return json({ ok: true });
    }
    case 'create': {
      const name = str(b.name).trim().replace(/\s+/g, ' ');
      const err = nameError(st, name);
      if (err) return json({ ok: false, error: err });
      const song = songOf(st, Number(b.song));
      const colors = ['#1098ad', '#d9480f', '#5c7cfa', '#37b24d', '#f76707', '#ae3ec9'];
      const fresh = st.playlists.filter((p) => !p.seeded).length;
      const id = 401 + fresh;
      st.playlists.push({ id, name, mine: true, description: '', songIds: song ? [song.id] : [], color: colors[fresh % colors.length]!, downloaded: false, deleted: false, seeded: false, seq: st.seq });
      st.flash = song ? `Added to ${name}` : `Created ${name}`;
      return json({ ok: true, id });
    }
    case 'remove': {
      const p = playlistOf(st, Number(b.playlist));
      if (!p || !p.mine) return json({ ok: false, error: 'Not your playlist' }, 409);
      const idx = Number(b.idx);
      const at = p.songIds[idx] === Number(b.song) ? idx : p.songIds.indexOf(Number(b.song));
      if (at < 0) return json({ ok: false, error: 'That song is not in this playlist' }, 409);
      p.songIds.splice(at, 1);
      st.flash = `Removed from ${p.name}`;
      return json({ ok: true });
    }
    case 'delete': {
      const p = playlistOf(st, Number(b.playlist));
      if (!p || !p.mine) return json({ ok: false, error: 'Not your playlist' }, 409);
      p.deleted = true;
      st.flash = `Deleted ${p.name}`;
      return json({ ok: true });
    }
    case 'pl-download': {
      const p = playlistOf(st, Number(b.playlist));
      if (!p || !p.mine) return json({ ok: false }, 409);
      p.downloaded = b.on === true;
      return json({ ok: true });
    }
    case 'follow': {
      const p = podcastOf(st, Number(b.podcast));
      if (!p) return json({ ok: false, error: 'Podcast not found' }, 404);
      p.followed = !p.followed;
      return json({ ok: true, followed: p.followed });
    }
    case 'download': {
      const e = episodeOf(st, Number(b.episode));
      if (!e) return json({ ok: false, error: 'Episode not found' }, 404);
      e.downloaded = b.on === true;
      return json({ ok: true, downloaded: e.downloaded });
    }
    case 'follow-artist': {
      const a = artistOf(st, Number(b.id));
      if (!a) return json({ ok: false }, 404);
      const on = !st.followedArtists.includes(a.id);
      st.followedArtists = on ? [...st.followedArtists, a.id] : st.followedArtists.filter((x) => x !== a.id);
      return json({ ok: true, on });
    }
    case 'timer': {
      const v = str(b.v);
      if (v !== 'Off' && !SLEEP_OPTIONS.includes(v)) return json({ ok: false, error: 'Pick a time' });
      st.sleepTimer = v;
      st.timerSeq = v === 'Off' ? 0 : st.seq;
      return json({ ok: true, text: v === 'Off' ? '' : timerText(v) });
    }
    case 'setting': {
      const key = str(b.key) as keyof Settings;
      const picker = SETTING_PICKERS.find(([k]) => k === key);
      if (picker) {
        if (!picker[2].includes(str(b.value))) return json({ ok: false }, 400);
        (st.settings[key] as string) = str(b.value);
        return json({ ok: true });
      }
      if (SETTING_SWITCHES.some(([k]) => k === key)) {
        (st.settings[key] as boolean) = b.value === true;
        return json({ ok: true });
      }
      return json({ ok: false }, 400);
    }
    case 'clear-downloads':
      for (const e of st.episodes) e.downloaded = false;
      for (const p of st.playlists) p.downloaded = false;
      st.flash = 'Downloads removed';
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleTunes(st: TunesState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, ctx, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const id = Number(arg);
  switch (head) {
    case undefined:
      return homePage(st, ctx);
    case 'search':
      return searchPage(st, ctx, (req.query.get('q') ?? '').slice(0, 80), req.query.get('genre') ?? '');
    case 'library':
      return libraryPage(st, ctx, req.query.get('f') ?? '');
    case 'liked':
      return likedPage(st, ctx);
    case 'downloads':
      return downloadsPage(st, ctx);
    case 'album': {
      const a = albumOf(st, id);
      return a ? albumPage(st, ctx, a) : notFound(CSS);
    }
    case 'artist': {
      const a = artistOf(st, id);
      return a ? artistPage(st, ctx, a) : notFound(CSS);
    }
    case 'playlist': {
      const p = playlistOf(st, id);
      return p ? playlistPage(st, ctx, p) : notFound(CSS);
    }
    case 'song': {
      const s = songOf(st, id);
      if (!s || sub !== 'add') return notFound(CSS);
      const back = req.query.get('back') ?? '/';
      return addPage(st, ctx, s, back.startsWith('/') && !back.startsWith('//') ? back : '/');
    }
    case 'podcast': {
      const p = podcastOf(st, id);
      return p ? podcastPage(st, ctx, p) : notFound(CSS);
    }
    case 'episode': {
      const e = episodeOf(st, id);
      return e ? episodePage(st, ctx, e) : notFound(CSS);
    }
    case 'now':
      return nowPage(st, ctx);
    case 'settings':
      return settingsPage(st, ctx);
    default:
      return notFound(CSS);
  }
}
