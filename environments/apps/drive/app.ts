import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, bottomNav, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  BRAND,
  childFiles,
  childFolders,
  cleanName,
  dayLabel,
  fileNameError,
  fileOf,
  folderNameError,
  folderOf,
  inTrash,
  KIND_LABELS,
  LINK_ACCESS,
  liveFolder,
  mine,
  pathOf,
  personName,
  QUOTA_GB,
  ROLES,
  ROOT_ID,
  ROOT_NAME,
  sharedWithMe,
  sizeLabel,
  SORT_KEYS,
  THEMES,
  USER,
  USER_EMAIL,
  within,
  type DriveFile,
  type DriveState,
  type FileKind,
  type Folder,
  type LinkAccess,
  type Settings,
  type SortKey,
} from './state.js';

const ACCENT = '#2f5fd0';
const SOFT = '#dbe6ff';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f5f7fb}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#fff;border-top:1px solid #dde2ea}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:3px;font-size:13px;font-weight:bold;color:#5a6272}
.bnav a .g{font-size:21px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:150px}
.fab{bottom:80px}
.toast{bottom:150px}
.searchpill{display:flex;align-items:center;gap:12px;margin:12px;height:52px;padding:0 18px;border-radius:26px;background:#e6ebf4;font-size:17px;color:#4a5262}
.searchpill .g{font-size:22px}
.find{display:flex;margin:10px 12px 6px;border:2px solid #b9c3d4;border-radius:26px;background:#fff;overflow:hidden}
.find input{flex:1;height:50px;border:none;padding:0 18px;font-size:17px;outline:none;background:#fff}
.find button{width:56px;font-size:22px;color:#fff;background:${ACCENT}}
.chips{display:flex;flex-wrap:wrap;gap:8px;padding:8px 12px 4px}
.chip{display:inline-flex;align-items:center;height:38px}
.sub{padding:8px 16px 4px;font-size:15px;color:#4a5262}
.cards{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:6px 12px}
.card{display:block;background:#fff;border-radius:12px;padding:10px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.card .prev{height:78px;border-radius:8px;background:#eef1f7;display:flex;align-items:center;justify-content:center;margin-bottom:8px}
.card .t{font-size:15px;font-weight:bold;color:#1d2230;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card .s{font-size:13px;color:#5a6272;margin-top:2px}
.frow{display:flex;align-items:center;background:#fff;border-bottom:1px solid #e7eaf0;min-height:66px}
.frow .fmain{flex:1;display:flex;align-items:center;gap:14px;padding:8px 0 8px 14px;min-width:0}
.frow .info{min-width:0}
.frow .t{font-size:17px;color:#1d2230;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.frow .s{font-size:14px;color:#5a6272;margin-top:2px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.frow .more{width:48px;height:52px;font-size:24px;color:#4a5262;flex:none}
.frow.dim{opacity:.45}
.star{color:#e8a200;font-size:15px}
.ficon{flex:none;width:40px;height:40px;border-radius:8px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:11px;font-weight:bold;letter-spacing:.3px}
.ficon.big{width:96px;height:96px;border-radius:18px;font-size:24px}
.ficon.folder{background:#5f6b7d;border-radius:4px 8px 8px 8px;position:relative;height:32px;margin-top:6px}
.ficon.folder:before{content:'';position:absolute;left:0;top:-6px;width:18px;height:8px;background:#5f6b7d;border-radius:4px 4px 0 0}
.ficon.folder.big{height:76px;margin-top:14px}
.ficon.folder.big:before{top:-12px;width:40px;height:14px}
.k-pdf{background:#d93a2b}.k-doc{background:#2f6fdf}.k-sheet{background:#1e8e4f}.k-slides{background:#e07b10}.k-image{background:#8a3fc7}.k-text{background:#6b7280}
.crumbs{display:flex;flex-wrap:wrap;align-items:center;gap:4px;padding:10px 14px 2px;font-size:15px;color:#5a6272}
.crumbs a{color:${ACCENT};font-weight:bold;padding:4px 2px}
.sortbar{display:flex;align-items:center;justify-content:space-between;padding:6px 8px 6px 16px;font-size:15px;color:#4a5262}
.sortbtn{height:40px;padding:0 12px;font-size:15px;font-weight:bold;color:#1d2230;border-radius:20px}
.hero{display:flex;flex-direction:column;align-items:center;gap:10px;padding:22px 16px 12px;background:#fff}
.hero h2{margin:0;font-size:21px;color:#1d2230;text-align:center;word-break:break-word}
.hero .s{font-size:15px;color:#4a5262}
.acts{display:flex;gap:10px;justify-content:center;flex-wrap:wrap;padding:4px 16px 16px;background:#fff}
.pill{height:42px;padding:0 18px;border-radius:21px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;background:#fff}
.pill.on{background:${SOFT}}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e7eaf0;font-size:16px;width:100%;text-align:left}
.kv .k{color:#3b4252}
.kv .v{font-weight:bold;color:#1d2230;text-align:right}
.kv .v.link{color:${ACCENT}}
.prow{display:flex;align-items:center;gap:12px;width:100%;min-height:62px;padding:8px 16px;background:#fff;border-bottom:1px solid #e7eaf0;text-align:left}
.prow .info{flex:1;min-width:0}
.prow .t{font-size:17px;color:#1d2230}
.prow .s{font-size:14px;color:#5a6272;margin-top:2px}
.prow .role{font-size:15px;font-weight:bold;color:#3b4252}
.av{flex:none;width:40px;height:40px;border-radius:20px;display:flex;align-items:center;justify-content:center;color:#fff;font-weight:bold;font-size:16px}
.recips{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:6px}
.recip{display:inline-flex;align-items:center;gap:6px;height:36px;padding:0 6px 0 12px;border-radius:18px;background:${SOFT};font-size:15px;font-weight:bold;color:#1d2230}
.recip button{width:26px;height:26px;border-radius:13px;font-size:16px;color:#3b4252}
.sugg{background:#fff;margin:0 12px;border-radius:12px;overflow:hidden;box-shadow:0 2px 8px rgba(0,0,0,.12)}
.has{font-size:13px;font-weight:bold;color:#5a6272}
.field textarea{height:100px}
.moving{padding:12px 16px;background:#fff;border-bottom:1px solid #e7eaf0;font-size:15px;color:#3b4252}
.moving b{color:#1d2230}
.movebar{position:fixed;left:0;right:0;bottom:0;z-index:30;display:flex;gap:10px;align-items:center;padding:10px 12px;background:#fff;border-top:1px solid #dde2ea}
.movebar button{height:50px;border-radius:25px;font-size:17px;font-weight:bold;padding:0 18px}
.movebar .mk{color:${ACCENT};border:2px solid ${ACCENT}}
.movebar .go{flex:1;background:${ACCENT};color:#fff}
.movebar .go:disabled{background:#b9c3d4}
.lrow{display:flex;align-items:center;gap:14px;min-height:62px;padding:8px 16px;background:#fff;border-bottom:1px solid #e7eaf0}
.lrow .t{font-size:17px;color:#1d2230}
.lrow .s{font-size:14px;color:#5a6272}
.lrow.dim{opacity:.45}
.sheet .sw{display:flex;align-items:center;justify-content:space-between}
.sheet .head{display:flex;align-items:center;gap:12px;padding:10px 20px 6px}
.sheet .head .t{padding:0;color:#1d2230;font-size:17px}
.dialog input{width:100%;height:50px;border:2px solid #b9c3d4;border-radius:10px;padding:0 12px;font-size:18px;outline:none;margin:4px 0 6px}
.dialog input:focus{border-color:${ACCENT}}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin-bottom:6px}
.drawer{position:fixed;top:0;left:0;bottom:0;width:290px;background:#fff;padding:40px 0 12px;box-shadow:4px 0 16px rgba(0,0,0,.25)}
.drawer .brand{padding:8px 22px 16px;font-size:22px;font-weight:bold;color:${ACCENT}}
.drawer a{display:flex;align-items:center;gap:14px;padding:15px 22px;font-size:17px;color:#1d2230}
.drawer .meter{margin:16px 22px 0;font-size:14px;color:#4a5262}
.bar{height:6px;border-radius:3px;background:#e2e7f0;margin-top:6px}
.bar div{height:6px;border-radius:3px;background:${ACCENT}}
.scrim.left{justify-content:flex-start;align-items:stretch}
.banner{margin:10px 12px;padding:12px 14px;border-radius:10px;background:#fff4d6;color:#5c4400;font-size:15px}
`;

type Tab = 'home' | 'starred' | 'shared' | 'files';

const nav = (ctx: AppContext, on: Tab | ''): string =>
  bottomNav<Tab | ''>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'starred', label: 'Starred', glyph: '&#9734;', href: `${ctx.base}/starred` },
      { id: 'shared', label: 'Shared', glyph: '&#9863;', href: `${ctx.base}/shared` },
      { id: 'files', label: 'Files', glyph: '&#9636;', href: `${ctx.base}/files` },
    ],
    on,
  );

const KIND_BADGE: Readonly<Record<FileKind, string>> = { pdf: 'PDF', doc: 'DOC', sheet: 'XLS', slides: 'PPT', image: 'IMG', text: 'TXT' };
const fileIcon = (k: FileKind, big = false): string => `<span class="ficon k-${k}${big ? ' big' : ''}" aria-hidden="true">${KIND_BADGE[k]}</span>`;
const folderIcon = (big = false): string => `<span class="ficon folder${big ? ' big' : ''}" aria-hidden="true"></span>`;
const AV_COLORS = ['#2f6fdf', '#c2255c', '#1e8e4f', '#e07b10', '#7048e8', '#0c8599', '#a61e4d', '#5c940d'];
function avatar(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const ini = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
  return `<span class="av" style="background:${AV_COLORS[h % AV_COLORS.length]}" aria-hidden="true">${esc(ini)}</span>`;
}
const js = (s: string): string => JSON.stringify(s).replace(/</g, '\\u003c');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The item menu (filled in when it opens), the create sheet, the rename and remove dialogs and the drawer. */
const ITEM_SHEET = `<div id="sheet" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('sheet')"><div class="sheet" role="menu"><div class="head"><span id="sheet-i"></span><div class="t" id="sheet-t"></div></div>
<button role="menuitem" id="m-share" onclick="toShare()">Share</button>
<button role="menuitem" id="m-link" onclick="copyLink()">Copy link</button>
<button role="menuitem" id="m-star" onclick="starIt()">Add to Starred</button>
<button role="menuitemcheckbox" id="m-offline" class="sw" aria-checked="false" onclick="offlineIt()"><span>Available offline</span><span class="switch" id="m-offline-sw"></span></button>
<button role="menuitem" id="m-move" onclick="toMove()">Move</button>
<button role="menuitem" id="m-rename" onclick="renameOpen()">Rename</button>
<button role="menuitem" id="m-details" onclick="location.href=BASE+'/file/'+CUR.id">Details</button>
<button role="menuitem" id="m-trash" onclick="hide('sheet');document.getElementById('rm-text').textContent='“'+CUR.name+'” will be deleted forever after 30 days.';show('rm')">Remove</button>
<button role="menuitem" onclick="hide('sheet')">Cancel</button></div></div>
<div id="ren" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Rename"><h2>Rename</h2><input id="ren-name" type="text" maxlength="80" autocomplete="off"><div class="err" id="ren-err"></div>
<div class="acts"><button onclick="hide('ren')">Cancel</button><button id="ren-ok" onclick="renameIt()">Rename</button></div></div></div>
<div id="rm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Move to trash?"><h2>Move to trash?</h2><p id="rm-text"></p>
<div class="acts"><button onclick="hide('rm')">Cancel</button><button id="rm-ok" onclick="trashIt()">Move to trash</button></div></div></div>`;

const newSheet = (folderId: number): string => `<div id="newsheet" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('newsheet')"><div class="sheet" role="menu"><div class="t">Create new</div>
<button role="menuitem" id="n-folder" onclick="hide('newsheet');newFolder()">Folder</button>
<button role="menuitem" id="n-upload" onclick="hide('newsheet');say('Can’t reach your phone’s files right now. Try again later.')">Upload</button>
<button role="menuitem" id="n-scan" onclick="hide('newsheet');say('Camera isn’t available right now')">Scan</button>
<button role="menuitem" id="n-doc" onclick="newDoc('doc')">Document</button>
<button role="menuitem" id="n-sheet" onclick="newDoc('sheet')">Spreadsheet</button>
<button role="menuitem" onclick="hide('newsheet')">Cancel</button></div></div>
${NEW_FOLDER_DIALOG}<script>const FOLDER=${folderId};</script>`;

const NEW_FOLDER_DIALOG = `<div id="newfolder" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="New folder"><h2>New folder</h2>
<input id="fname" type="text" maxlength="80" autocomplete="off" placeholder="Untitled folder"><div class="err" id="ferr"></div>
<div class="acts"><button onclick="hide('newfolder')">Cancel</button><button id="fcreate" onclick="createFolder()">Create</button></div></div></div>`;

const drawer = (st: DriveState, ctx: AppContext): string => `<div id="drawer" class="scrim left" data-overlay hidden onclick="if(event.target===this)hide('drawer')"><nav class="drawer" aria-label="Menu"><div class="brand">${BRAND}</div>
<a href="${ctx.base}/">&#9719; Recent</a><a href="${ctx.base}/offline">&#10515; Offline</a><a href="${ctx.base}/trash">&#128465;&#xFE0E; Trash</a><a href="${ctx.base}/settings">&#9881; Settings</a>
<div class="meter">Storage: ${st.storageUsedGb} GB of ${QUOTA_GB} GB used<div class="bar"><div style="width:${Math.round((100 * st.storageUsedGb) / QUOTA_GB)}%"></div></div></div></nav></div>`;

const SHARED_JS = `
function say(t,undo){let el=document.getElementById('toast');if(!el){el=document.createElement('div');el.id='toast';el.className='toast';el.setAttribute('role','status');document.body.appendChild(el)}
 el.innerHTML='<span></span>';el.firstChild.textContent=t;if(undo){const b=document.createElement('button');b.textContent='Undo';b.onclick=()=>doUndo(undo);el.appendChild(b)}el.hidden=false;clearTimeout(window.__st);window.__st=setTimeout(()=>{el.hidden=true},4000)}
function here(){return location.pathname.slice(BASE.length)+location.search}
function reload(){location.replace(location.pathname+location.search)}
function doUndo(item){api('restore',{item}).then(r=>{if(r.ok)reload()})}
let CUR={};
function itemMenu(b){const row=b.closest('[data-item]');const d=row.dataset;CUR={item:d.item,id:Number(d.item.slice(2)),folder:d.item[0]==='d',name:d.name,starred:d.starred==='1',offline:d.offline==='1',mine:d.mine==='1',kind:d.kind};
 document.getElementById('sheet-t').textContent=d.name;document.getElementById('sheet-i').innerHTML=row.querySelector('.ficon').outerHTML;
 document.getElementById('m-star').textContent=CUR.starred?'Remove from Starred':'Add to Starred';
 const off=document.getElementById('m-offline');off.setAttribute('aria-checked',String(CUR.offline));document.getElementById('m-offline-sw').classList.toggle('on',CUR.offline);
 off.hidden=CUR.folder;document.getElementById('m-details').hidden=CUR.folder;document.getElementById('m-share').hidden=CUR.folder||!CUR.mine;
 for(const id of ['m-move','m-rename','m-trash'])document.getElementById(id).hidden=!CUR.mine;show('sheet')}
function toShare(){location.href=BASE+'/file/'+CUR.id+'/share?back='+encodeURIComponent(here())}
function toMove(){location.href=BASE+'/move?item='+CUR.item+'&back='+encodeURIComponent(here())}
function copyLink(){hide('sheet');say('Link copied')}
function starIt(){api('star',{item:CUR.item,on:!CUR.starred}).then(r=>{if(r.ok)reload()})}
function offlineIt(){api('offline',{file:CUR.id,on:!CUR.offline}).then(r=>{if(r.ok)reload()})}
function renameOpen(){hide('sheet');const i=document.getElementById('ren-name');i.value=CUR.name;document.getElementById('ren-err').textContent='';show('ren');i.focus()}
function renameIt(){api('rename',{item:CUR.item,name:document.getElementById('ren-name').value}).then(r=>{if(r.ok){reload();return}document.getElementById('ren-err').textContent=r.error||'Could not rename'})}
function trashIt(){api('trash',{item:CUR.item}).then(r=>{if(r.ok)reload()})}
function newFolder(){document.getElementById('fname').value='';document.getElementById('ferr').textContent='';show('newfolder');document.getElementById('fname').focus()}
let fbusy=false;function createFolder(){if(fbusy)return;fbusy=true;api('mkdir',{parent:FOLDER,name:document.getElementById('fname').value}).then(r=>{fbusy=false;if(r.ok){reload();return}document.getElementById('ferr').textContent=r.error||'Could not create the folder'})}
function newDoc(kind){api('newdoc',{parent:FOLDER,kind}).then(r=>{if(r.ok)location.href=BASE+'/file/'+r.id})}
function setSort(v){api('sort',{value:v}).then(r=>{if(r.ok)reload()})}
`;

interface PageOpts {
  title: string;
  body: string;
  tab?: Tab | '';
  back?: boolean;
  menu?: readonly (readonly [string, string])[];
  actions?: string;
  script?: string;
  root?: boolean;
  /** The folder a + New button creates in; none when undefined. */
  fab?: number;
  /** A ☰ button that opens the side drawer (the tab pages). */
  drawer?: boolean;
}

function page(st: DriveState, ctx: AppContext, o: PageOpts): AppResponse {
  const flash = st.flash;
  const undo = st.flashUndo;
  st.flash = '';
  st.flashUndo = '';
  const menu = o.menu ?? [
    ['Trash', `${ctx.base}/trash`],
    ['Settings', `${ctx.base}/settings`],
  ];
  const burger = o.drawer ? `<button class="icon" aria-label="Open menu" onclick="show('drawer')">&#9776;</button>` : '';
  const bar = appbar(o.title, { back: o.back ?? false, ...(o.actions ? { actions: o.actions } : {}) }).replace('<header class="appbar">', `<header class="appbar">${burger}`);
  const fab = o.fab !== undefined ? `<button class="fab" id="fab" aria-label="New" onclick="show('newsheet')"><span class="plus">+</span>New</button>${newSheet(o.fab)}` : '';
  const body = `${bar}${o.body}<div class="spacer"></div>${fab}${nav(ctx, o.tab ?? '')}${overflowMenu(menu)}${ITEM_SHEET}${o.drawer ? drawer(st, ctx) : ''}${
    flash ? toast(flash, undo ? { label: 'Undo', js: `doUndo('${undo}')` } : undefined) : ''
  }`;
  return renderPage({ title: o.title, css: CSS, body, ctx, script: SHARED_JS + (o.script ?? ''), root: o.root ?? false });
}

const whereIs = (st: DriveState, f: DriveFile): string => (f.parentId === null ? `Shared by ${personName(st, f.owner)}` : (folderOf(st, f.parentId)?.name ?? ROOT_NAME));

function fileRow(st: DriveState, ctx: AppContext, f: DriveFile, o: { where?: boolean; dim?: boolean } = {}): string {
  const sub = [o.where ? (f.parentId === null ? `Shared by ${personName(st, f.owner)}` : `in ${whereIs(st, f)}`) : '', `Modified ${dayLabel(f.daysAgo)}`, sizeLabel(f.sizeKb), f.offline ? '&#10515; Offline' : '']
    .filter(Boolean)
    .join(' · ');
  return `<div class="frow${o.dim ? ' dim' : ''}" data-item="f:${f.id}" data-name="${esc(f.name)}" data-kind="${f.kind}" data-starred="${f.starred ? 1 : 0}" data-offline="${f.offline ? 1 : 0}" data-mine="${mine(f) ? 1 : 0}"><a class="fmain" href="${ctx.base}/file/${f.id}">${fileIcon(f.kind)}<div class="info"><div class="t">${esc(f.name)}${f.starred ? ' <span class="star" aria-label="Starred">&#9733;</span>' : ''}</div><div class="s">${sub}</div></div></a><button class="more" aria-label="More actions for ${esc(f.name)}" onclick="itemMenu(this)">&#8942;</button></div>`;
}

function folderRow(st: DriveState, ctx: AppContext, d: Folder, o: { where?: boolean } = {}): string {
  const parent = d.parentId !== null ? folderOf(st, d.parentId) : undefined;
  const sub = [o.where && parent ? `in ${parent.name}` : '', `Modified ${dayLabel(d.daysAgo)}`].filter(Boolean).join(' · ');
  return `<div class="frow" data-item="d:${d.id}" data-name="${esc(d.name)}" data-kind="folder" data-starred="${d.starred ? 1 : 0}" data-offline="0" data-mine="1"><a class="fmain" href="${ctx.base}/folder/${d.id}">${folderIcon()}<div class="info"><div class="t">${esc(d.name)}${d.starred ? ' <span class="star" aria-label="Starred">&#9733;</span>' : ''}</div><div class="s">${sub}</div></div></a><button class="more" aria-label="More actions for ${esc(d.name)}" onclick="itemMenu(this)">&#8942;</button></div>`;
}

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name, 'en', { sensitivity: 'base', numeric: true });
function sorted<T extends { name: string; daysAgo: number; sizeKb?: number }>(st: DriveState, items: T[]): T[] {
  const s = st.sort;
  return [...items].sort((a, b) => (s === 'Last modified' ? a.daysAgo - b.daysAgo : s === 'Size' ? (b.sizeKb ?? 0) - (a.sizeKb ?? 0) : 0) || byName(a, b));
}

function sortBar(st: DriveState, count: number): string {
  return `<div class="sortbar"><span>${plural(count, 'item')}</span><button class="sortbtn" id="sort-btn" onclick="show('sortpick')">${esc(st.sort)} ${st.sort === 'Name' ? '&#8593;' : '&#8595;'}</button></div>${pickerDialog('sortpick', 'Sort by', SORT_KEYS, st.sort, 'setSort')}`;
}

function homePage(st: DriveState, ctx: AppContext): AppResponse {
  const live = st.files.filter((f) => !f.trashed && !f.deleted && !inTrash(st, f.parentId));
  const cards = st.suggested
    .map((id) => live.find((f) => f.id === id))
    .filter((f): f is DriveFile => !!f)
    .map(
      (f) =>
        `<a class="card" href="${ctx.base}/file/${f.id}" data-file="${esc(f.name)}"><div class="prev">${fileIcon(f.kind)}</div><div class="t">${esc(f.name)}</div><div class="s">${mine(f) ? 'You edited' : `${esc(personName(st, f.owner))} edited`} · ${dayLabel(f.daysAgo)}</div></a>`,
    )
    .join('');
  const recent = [...live]
    .sort((a, b) => a.daysAgo - b.daysAgo || b.id - a.id)
    .slice(0, 8)
    .map((f) => fileRow(st, ctx, f, { where: true }))
    .join('');
  const body = `<a class="searchpill" href="${ctx.base}/search" id="search-pill"><span class="g" aria-hidden="true">&#8981;</span>Search in ${BRAND}</a>
<div class="section">Suggested</div><div class="cards">${cards || '<div class="empty">Files you open will show up here</div>'}</div>
<div class="section">Recent</div>${recent}`;
  return page(st, ctx, { title: BRAND, body, tab: 'home', root: true, drawer: true, fab: ROOT_ID, actions: `<a class="icon" aria-label="Account" href="${ctx.base}/settings">&#9787;</a>` });
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[“”"'’.,!?&()_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const matches = (hay: string, q: string): boolean => {
  const h = norm(hay);
  return norm(q)
    .split(' ')
    .filter(Boolean)
    .every((w) => h.includes(w));
};
const TYPES: readonly (readonly [string, string, FileKind | 'folder'])[] = [
  ['pdf', 'PDFs', 'pdf'],
  ['doc', 'Documents', 'doc'],
  ['sheet', 'Spreadsheets', 'sheet'],
  ['slides', 'Presentations', 'slides'],
  ['image', 'Images', 'image'],
  ['folder', 'Folders', 'folder'],
];

function searchPage(st: DriveState, ctx: AppContext, q: string, type: string): AppResponse {
  const t = TYPES.find(([k]) => k === type);
  const box = `<form class="find" method="get" action="${ctx.base}/search"><input id="q" name="q" type="search" autocomplete="off" placeholder="Search in ${BRAND}" value="${esc(q)}">${
    t ? `<input type="hidden" name="type" value="${esc(t[0])}">` : ''
  }<button type="submit" id="go" aria-label="Search">&#8981;</button></form>`;
  const chips = `<div class="chips">${TYPES.map(
    ([k, label]) =>
      `<a class="chip${k === t?.[0] ? ' on' : ''}" href="${ctx.base}/search?${new URLSearchParams({ ...(norm(q) ? { q } : {}), ...(k === t?.[0] ? {} : { type: k }) }).toString()}">${esc(label)}</a>`,
  ).join('')}</div>`;
  let list: string;
  if (!norm(q) && !t) {
    list = `<div class="section">Search by type</div>${chips}<div class="sub">Search for files and folders by name.</div>`;
  } else {
    const folders = st.folders.filter((d) => d.id !== ROOT_ID && !d.trashed && !d.deleted && !inTrash(st, d.parentId) && (!t || t[2] === 'folder') && matches(d.name, q));
    const files = st.files.filter((f) => !f.trashed && !f.deleted && !inTrash(st, f.parentId) && (!t || t[2] === f.kind) && matches(f.name, q)).sort((a, b) => a.daysAgo - b.daysAgo || a.id - b.id);
    const rows = [...folders.sort((a, b) => a.daysAgo - b.daysAgo).map((d) => folderRow(st, ctx, d, { where: true })), ...files.map((f) => fileRow(st, ctx, f, { where: true }))].join('');
    const what = norm(q) ? `Results for “${esc(q)}”` : esc(t?.[1] ?? '');
    list = `${chips}<div class="sub">${what}</div>${rows || `<div class="empty">No results${norm(q) ? ` for “${esc(q)}”` : ''}. Check the spelling or try another word.</div>`}`;
  }
  return page(st, ctx, { title: 'Search', body: box + list, back: true, script: norm(q) ? '' : "document.getElementById('q').focus()" });
}

function folderPage(st: DriveState, ctx: AppContext, d: Folder): AppResponse {
  const isRoot = d.id === ROOT_ID;
  const folders = sorted(st, childFolders(st, d.id).map((x) => ({ ...x, sizeKb: 0 })));
  const files = sorted(st, childFiles(st, d.id));
  const crumbs = isRoot
    ? ''
    : `<nav class="crumbs" aria-label="Folder path">${pathOf(st, d.id)
        .map((p, i, all) => (i === all.length - 1 ? `<span>${esc(p.name)}</span>` : `<a href="${ctx.base}/${p.id === ROOT_ID ? 'files' : `folder/${p.id}`}">${esc(p.name)}</a> &#8250;`))
        .join(' ')}</nav>`;
  const rows = [...folders.map((x) => folderRow(st, ctx, folderOf(st, x.id)!)), ...files.map((f) => fileRow(st, ctx, f))].join('');
  const body = `${crumbs}${sortBar(st, folders.length + files.length)}${rows || '<div class="empty">This folder is empty.<br>Tap + New to create a folder or a document here.</div>'}`;
  return page(st, ctx, {
    title: isRoot ? ROOT_NAME : d.name,
    body,
    tab: 'files',
    back: !isRoot,
    root: isRoot,
    drawer: isRoot,
    fab: d.id,
    actions: `<a class="icon" aria-label="Search" href="${ctx.base}/search">&#8981;</a>`,
  });
}

function starredPage(st: DriveState, ctx: AppContext): AppResponse {
  const folders = st.folders.filter((d) => d.starred && !d.trashed && !d.deleted && !inTrash(st, d.parentId));
  const files = st.files.filter((f) => f.starred && !f.trashed && !f.deleted && !inTrash(st, f.parentId));
  const rows = [...sorted(st, folders.map((x) => ({ ...x, sizeKb: 0 }))).map((x) => folderRow(st, ctx, folderOf(st, x.id)!, { where: true })), ...sorted(st, files).map((f) => fileRow(st, ctx, f, { where: true }))].join('');
  return page(st, ctx, { title: 'Starred', body: rows || '<div class="empty">Nothing starred yet.<br>Star files and folders you want to find easily.</div>', tab: 'starred', root: true, drawer: true });
}

function sharedPage(st: DriveState, ctx: AppContext): AppResponse {
  const files = sharedWithMe(st).sort((a, b) => a.daysAgo - b.daysAgo);
  const body = `<div class="sub">Shared with me</div>${files.map((f) => fileRow(st, ctx, f, { where: true })).join('') || '<div class="empty">Files others share with you will show up here</div>'}`;
  return page(st, ctx, { title: 'Shared', body, tab: 'shared', root: true, drawer: true });
}

function filePage(st: DriveState, ctx: AppContext, f: DriveFile): AppResponse {
  const own = mine(f);
  const parent = f.parentId !== null ? folderOf(st, f.parentId) : undefined;
  const people = [`<div class="prow">${avatar(personName(st, f.owner))}<div class="info"><div class="t">${esc(personName(st, f.owner))}${own ? ' (you)' : ''}</div><div class="s">${esc(f.owner)}</div></div><span class="role">Owner</span></div>`]
    .concat(
      f.shares
        .filter((s) => s.email !== f.owner)
        .map(
          (s) =>
            `<div class="prow">${avatar(personName(st, s.email))}<div class="info"><div class="t">${esc(personName(st, s.email))}${s.email === USER_EMAIL ? ' (you)' : ''}</div><div class="s">${esc(s.email)}</div></div><span class="role">${s.role}</span></div>`,
        ),
    )
    .join('');
  const where = f.trashed
    ? 'Trash'
    : parent
      ? `<a class="v link" href="${ctx.base}/${parent.id === ROOT_ID ? 'files' : `folder/${parent.id}`}">${esc(parent.name)}</a>`
      : 'Shared with me';
  const body = `<div class="hero">${fileIcon(f.kind, true)}<h2 id="file-name">${esc(f.name)}</h2><div class="s">${own ? 'Owned by you' : `Owned by ${esc(personName(st, f.owner))}`}</div></div>
<div class="acts" data-item="f:${f.id}" data-name="${esc(f.name)}" data-kind="${f.kind}" data-starred="${f.starred ? 1 : 0}" data-offline="${f.offline ? 1 : 0}" data-mine="${own ? 1 : 0}">${
    own && !f.trashed ? `<a class="pill" id="d-share" href="${ctx.base}/file/${f.id}/share?back=${encodeURIComponent(`/file/${f.id}`)}" style="line-height:38px">Share</a>` : ''
  }<button class="pill${f.starred ? ' on' : ''}" id="d-star" onclick="dStar()">${f.starred ? '&#9733; Starred' : '&#9734; Star'}</button>${
    own && !f.trashed ? `<a class="pill" id="d-move" href="${ctx.base}/move?item=f:${f.id}&back=${encodeURIComponent(`/file/${f.id}`)}" style="line-height:38px">Move</a>` : ''
  }</div>
<button class="row" role="switch" id="d-offline" aria-checked="${f.offline}" onclick="dOffline()"><div class="info"><div class="t">Available offline</div><div class="s">Open this file without a connection</div></div><span class="switch${f.offline ? ' on' : ''}"></span></button>
<div class="section">Who has access</div>${people}${
    own ? `<div class="kv"><span class="k">General access</span><span class="v">${esc(f.link)}</span></div><a class="kv" href="${ctx.base}/file/${f.id}/share?back=${encodeURIComponent(`/file/${f.id}`)}"><span class="k" style="color:${ACCENT};font-weight:bold">Manage access</span></a>` : ''
  }
<div class="section">File details</div>
<div class="kv"><span class="k">Type</span><span class="v">${esc(KIND_LABELS[f.kind])}</span></div>
<div class="kv"><span class="k">Size</span><span class="v">${sizeLabel(f.sizeKb)}</span></div>
<div class="kv"><span class="k">Location</span><span class="v">${where}</span></div>
<div class="kv"><span class="k">Owner</span><span class="v">${esc(own ? 'me' : personName(st, f.owner))}</span></div>
<div class="kv"><span class="k">Modified</span><span class="v">${dayLabel(f.daysAgo)}</span></div>`;
  const script = `CUR={item:'f:${f.id}',id:${f.id},folder:false,name:${js(f.name)},starred:${f.starred},offline:${f.offline},mine:${own}};
function dStar(){api('star',{item:CUR.item,on:!CUR.starred}).then(r=>{if(r.ok)reload()})}
function dOffline(){api('offline',{file:CUR.id,on:!CUR.offline}).then(r=>{if(r.ok)reload()})}`;
  const menu: (readonly [string, string])[] = own
    ? [
        ['Rename', "js:document.getElementById('overflow').hidden=true;renameOpen()"],
        ['Copy link', "js:document.getElementById('overflow').hidden=true;say('Link copied')"],
        ['Remove', "js:document.getElementById('overflow').hidden=true;document.getElementById('rm-text').textContent='“'+CUR.name+'” will be deleted forever after 30 days.';show('rm')"],
      ]
    : [['Copy link', "js:document.getElementById('overflow').hidden=true;say('Link copied')"]];
  return page(st, ctx, { title: 'Details', body, back: true, script, menu });
}

function sharePage(st: DriveState, ctx: AppContext, f: DriveFile, back: string): AppResponse {
  const has = (email: string): boolean => f.shares.some((s) => s.email === email);
  const sugg = st.contacts
    .map(
      (c) =>
        `<button class="prow" data-email="${esc(c.email)}" data-name="${esc(c.name)}" hidden onclick="addPerson(this.dataset.email,this.dataset.name)">${avatar(c.name)}<div class="info"><div class="t">${esc(c.name)}</div><div class="s">${esc(c.email)}</div></div>${
          has(c.email) ? '<span class="has">Has access</span>' : ''
        }</button>`,
    )
    .join('');
  const people = [`<div class="prow">${avatar(USER)}<div class="info"><div class="t">${esc(USER)} (you)</div><div class="s">${esc(USER_EMAIL)}</div></div><span class="role">Owner</span></div>`]
    .concat(
      f.shares.map(
        (s) =>
          `<button class="prow" data-person="${esc(personName(st, s.email))}" data-email="${esc(s.email)}" data-role="${s.role}" onclick="personMenu(this)">${avatar(personName(st, s.email))}<div class="info"><div class="t">${esc(personName(st, s.email))}</div><div class="s">${esc(s.email)}</div></div><span class="role">${s.role} &#9662;</span></button>`,
      ),
    )
    .join('');
  const roleOpts = (id: string, fn: string, extra = ''): string =>
    `<div id="${id}-opts">${ROLES.map((r) => `<button class="opt${r === 'Viewer' ? ' sel' : ''}" role="radio" aria-checked="${r === 'Viewer'}" data-v="${r}" onclick="${fn}(this.dataset.v)"><span class="rad"></span>${r}</button>`).join('')}${extra}</div>`;
  const body = `<div class="hero" style="flex-direction:row;justify-content:flex-start;padding:14px 16px">${fileIcon(f.kind)}<h2 style="font-size:18px;text-align:left" id="share-name">Share “${esc(f.name)}”</h2></div>
<div class="field"><label for="ppl">Add people</label><div class="recips" id="recips"></div><input id="ppl" type="text" autocomplete="off" placeholder="Add people or groups" oninput="filterPeople()" onkeydown="if(event.key==='Enter'){event.preventDefault();typedEmail()}"></div>
<div class="sugg" id="sugg" hidden>${sugg}</div>
<div id="compose" hidden>
<button class="kv" id="role-btn" onclick="show('rolepick')"><span class="k">Role</span><span class="v" id="role-v" style="color:${ACCENT}">Viewer &#9662;</span></button>
<button class="row" role="switch" id="notify" aria-checked="true" onclick="toggleNotify()"><div class="info"><div class="t">Notify people</div><div class="s">Send an email with a link to the file</div></div><span class="switch on"></span></button>
<div class="field" id="msg-box"><label for="msg">Message</label><textarea id="msg" placeholder="Add a message (optional)"></textarea></div>
<div class="error" id="serr"></div>
<button class="primary" id="send" onclick="sendShare()">Send</button></div>
<div id="access"><div class="section">People with access</div>${people}
<div class="section">General access</div><button class="kv" id="link-btn" onclick="show('linkpick')"><span class="k">${f.link === 'Restricted' ? 'Only people with access can open with the link' : 'Anyone on the internet with the link can view'}</span><span class="v" style="color:${ACCENT}">${esc(f.link)} &#9662;</span></button>
<button class="kv" onclick="say('Link copied')"><span class="k" style="color:${ACCENT};font-weight:bold">Copy link</span></button></div>
<div id="rolepick" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('rolepick')"><div class="dialog" role="dialog" aria-label="Role"><h2>Role</h2>${roleOpts('role', 'pickRole')}<div class="acts"><button onclick="hide('rolepick')">Cancel</button></div></div></div>
<div id="pmenu" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('pmenu')"><div class="dialog" role="dialog" aria-label="Change access"><h2 id="pmenu-t"></h2>${roleOpts(
    'prole',
    'changeRole',
    '<button class="opt" id="p-remove" onclick="changeRole(\'remove\')" style="color:#c92a2a;font-weight:bold">Remove access</button>',
  )}<div class="acts"><button onclick="hide('pmenu')">Cancel</button></div></div></div>
${pickerDialog('linkpick', 'General access', LINK_ACCESS, f.link, 'setLink')}`;
  const script = `const FILE=${f.id},BACK=${js(back)};let RECIPS=[],ROLE='Viewer',NOTIFY=true,PERSON=null;
function norm(s){return s.toLowerCase().replace(/\\s+/g,' ').trim()}
function filterPeople(){const q=norm(document.getElementById('ppl').value);let n=0;for(const b of document.querySelectorAll('#sugg .prow')){const ok=!!q&&!RECIPS.some(r=>r.email===b.dataset.email)&&(norm(b.dataset.name).includes(q)||b.dataset.email.includes(q)||norm(b.dataset.name).split(' ').some(w=>w.startsWith(q)));b.hidden=!ok;if(ok)n++}document.getElementById('sugg').hidden=n===0}
function drawRecips(){const box=document.getElementById('recips');box.innerHTML='';for(const r of RECIPS){const c=document.createElement('span');c.className='recip';c.dataset.email=r.email;c.textContent=r.name;const x=document.createElement('button');x.setAttribute('aria-label','Remove '+r.name);x.textContent='×';x.onclick=()=>{RECIPS=RECIPS.filter(y=>y.email!==r.email);drawRecips()};c.appendChild(x);box.appendChild(c)}
 const any=RECIPS.length>0;document.getElementById('compose').hidden=!any;document.getElementById('access').hidden=any;document.getElementById('ppl').placeholder=any?'Add more people':'Add people or groups'}
function addPerson(email,name){if(!RECIPS.some(r=>r.email===email))RECIPS.push({email,name});const i=document.getElementById('ppl');i.value='';filterPeople();drawRecips()}
function typedEmail(){const v=document.getElementById('ppl').value.trim();if(/^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/i.test(v))addPerson(v.toLowerCase(),v.toLowerCase());else if(v)say('Enter a name from your contacts or a full email address')}
function pickRole(v){ROLE=v;document.getElementById('role-v').innerHTML=v+' &#9662;';for(const o of document.querySelectorAll('#role-opts .opt')){const s=o.dataset.v===v;o.classList.toggle('sel',s);o.setAttribute('aria-checked',String(s))}hide('rolepick')}
function toggleNotify(){NOTIFY=!NOTIFY;const b=document.getElementById('notify');b.setAttribute('aria-checked',String(NOTIFY));b.querySelector('.switch').classList.toggle('on',NOTIFY);document.getElementById('msg-box').hidden=!NOTIFY}
let sbusy=false;function sendShare(){if(sbusy||!RECIPS.length)return;sbusy=true;api('share',{file:FILE,emails:RECIPS.map(r=>r.email),role:ROLE,notify:NOTIFY,message:document.getElementById('msg').value}).then(r=>{sbusy=false;if(r.ok){location.replace(BASE+BACK);return}document.getElementById('serr').textContent=r.error||'Could not share'})}
function personMenu(b){PERSON=b.dataset.email;document.getElementById('pmenu-t').textContent=b.dataset.person;for(const o of document.querySelectorAll('#prole-opts .opt[data-v]')){const s=o.dataset.v===b.dataset.role;o.classList.toggle('sel',s);o.setAttribute('aria-checked',String(s))}show('pmenu')}
function changeRole(v){api('access',{file:FILE,email:PERSON,role:v}).then(r=>{if(r.ok)reload()})}
function setLink(v){api('link',{file:FILE,value:v}).then(r=>{if(r.ok)reload()})}`;
  return page(st, ctx, { title: 'Share', body, back: true, script, menu: [['Settings', `${ctx.base}/settings`]] });
}

/** The Move picker: browse folders from where the item is, then Move here. */
function movePage(st: DriveState, ctx: AppContext, item: string, atRaw: string, back: string): AppResponse {
  const it = itemOf(st, item);
  if (!it || it.parentId === null) return notFound(CSS);
  const at = liveFolder(st, Number(atRaw)) ?? liveFolder(st, it.parentId) ?? folderOf(st, ROOT_ID)!;
  const isFolder = item.startsWith('d:');
  const href = (id: number): string => `${ctx.base}/move?${new URLSearchParams({ item, at: String(id), back }).toString()}`;
  const rows = [
    ...sorted(
      st,
      childFolders(st, at.id)
        .filter((d) => !(isFolder && d.id === it.id))
        .map((d) => ({ ...d, sizeKb: 0 })),
    ).map((d) => `<a class="lrow" href="${href(d.id)}" data-folder="${esc(d.name)}">${folderIcon()}<div class="info"><div class="t">${esc(d.name)}</div></div></a>`),
    ...sorted(st, childFiles(st, at.id)).map((f) => `<div class="lrow dim">${fileIcon(f.kind)}<div class="info"><div class="t">${esc(f.name)}</div></div></div>`),
  ].join('');
  const crumbs = `<nav class="crumbs" aria-label="Folder path">${pathOf(st, at.id)
    .map((p, i, all) => (i === all.length - 1 ? `<span>${esc(p.name)}</span>` : `<a href="${href(p.id)}">${esc(p.name)}</a> &#8250;`))
    .join(' ')}</nav>`;
  const here = at.id === it.parentId;
  const current = folderOf(st, it.parentId)?.name ?? ROOT_NAME;
  const up = at.parentId !== null ? `<a class="icon" aria-label="Back" href="${href(at.parentId)}">&larr;</a>` : '';
  const bar = `<header class="appbar">${up}<h1>${esc(at.name)}</h1><button class="icon" aria-label="Close" onclick="location.replace(BASE+BACK)">&#10005;</button></header>`;
  const body = `${bar}<div class="moving">Move <b id="moving-name">${esc(it.name)}</b><br>Current location: ${esc(current)}</div>${crumbs}
${rows || '<div class="empty">No folders here</div>'}<div class="spacer"></div>
<div class="movebar"><button class="mk" id="mk" onclick="newFolder()">New folder</button><button class="go" id="move-here" onclick="moveHere()"${here ? ' disabled' : ''}>${here ? 'Already here' : 'Move here'}</button></div>
${NEW_FOLDER_DIALOG}`;
  const script = `const FOLDER=${at.id},BACK=${js(back)};let mbusy=false;
function moveHere(){if(mbusy)return;mbusy=true;api('move',{item:${js(item)},to:FOLDER}).then(r=>{mbusy=false;if(r.ok){location.replace(BASE+BACK);return}say(r.error||'Could not move')})}`;
  const flash = st.flash;
  st.flash = '';
  st.flashUndo = '';
  return renderPage({ title: 'Move', css: CSS, body: body + (flash ? toast(flash) : ''), ctx, script: SHARED_JS + script });
}

function trashPage(st: DriveState, ctx: AppContext): AppResponse {
  const folders = st.folders.filter((d) => d.trashed && !d.deleted);
  const files = st.files.filter((f) => f.trashed && !f.deleted);
  const row = (item: string, name: string, icon: string, sub: string): string =>
    `<div class="frow" data-item="${item}" data-name="${esc(name)}"><div class="fmain">${icon}<div class="info"><div class="t">${esc(name)}</div><div class="s">${sub}</div></div></div><button class="more" aria-label="More actions for ${esc(name)}" onclick="trashMenu(this)">&#8942;</button></div>`;
  const rows = [...folders.map((d) => row(`d:${d.id}`, d.name, folderIcon(), 'Folder')), ...files.map((f) => row(`f:${f.id}`, f.name, fileIcon(f.kind), `${sizeLabel(f.sizeKb)} · Modified ${dayLabel(f.daysAgo)}`))].join('');
  const body = `<div class="banner">Items in trash are deleted forever after 30 days.</div>${rows || '<div class="empty">Trash is empty</div>'}
<div id="tsheet" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('tsheet')"><div class="sheet" role="menu"><div class="t" id="tsheet-t"></div>
<button role="menuitem" id="t-restore" onclick="restoreIt()">Restore</button><button role="menuitem" id="t-delete" onclick="hide('tsheet');show('purge')">Delete forever</button><button role="menuitem" onclick="hide('tsheet')">Cancel</button></div></div>
${confirmDialog('purge', 'Delete forever?', 'This item will be deleted forever and you won’t be able to restore it.', 'Delete forever', 'purgeIt()')}
${confirmDialog('empty', 'Empty trash?', 'All items in the trash will be deleted forever.', 'Empty trash', 'emptyIt()')}`;
  const script = `let TI='';function trashMenu(b){const r=b.closest('[data-item]');TI=r.dataset.item;document.getElementById('tsheet-t').textContent=r.dataset.name;show('tsheet')}
function restoreIt(){api('restore',{item:TI}).then(r=>{if(r.ok)reload()})}
function purgeIt(){api('purge',{item:TI}).then(r=>{if(r.ok)reload()})}
function emptyIt(){api('empty-trash',{}).then(r=>{if(r.ok)reload()})}`;
  return page(st, ctx, { title: 'Trash', body, back: true, script, menu: [['Empty trash', "js:document.getElementById('overflow').hidden=true;show('empty')"]] });
}

function offlinePage(st: DriveState, ctx: AppContext): AppResponse {
  const files = st.files.filter((f) => f.offline && !f.trashed && !f.deleted && !inTrash(st, f.parentId));
  const body = `<div class="sub">Files here open without a connection.</div>${sorted(st, files)
    .map((f) => fileRow(st, ctx, f, { where: true }))
    .join('') || '<div class="empty">No offline files.<br>Turn on Available offline in a file’s menu.</div>'}`;
  return page(st, ctx, { title: 'Offline', body, back: true });
}

const SWITCHES: readonly (readonly [keyof Settings, string, string])[] = [
  ['wifiOnly', 'Transfer files only over Wi-Fi', 'Uploads and offline files wait for Wi-Fi'],
  ['photoBackup', 'Back up photos', 'Save new photos from this phone to Photos'],
  ['notifyShares', 'Items shared with me', 'Notify me when someone shares a file'],
  ['notifyComments', 'Comments and mentions', 'Notify me about comments on my files'],
];

function settingsPage(st: DriveState, ctx: AppContext): AppResponse {
  const s = st.settings;
  const sw = (k: keyof Settings): string => {
    const [, label, sub] = SWITCHES.find(([x]) => x === k)!;
    const on = s[k] === true;
    return `<button class="row" role="switch" aria-checked="${on}" data-k="${k}" onclick="sw(this)"><div class="info"><div class="t">${esc(label)}</div><div class="s">${esc(sub)}</div></div><span class="switch${on ? ' on' : ''}"></span></button>`;
  };
  const body = `<div class="section">Account</div>
<div class="kv"><span class="k">${esc(USER)}</span><span class="v" style="font-weight:normal">${esc(USER_EMAIL)}</span></div>
<div class="section" id="storage">Storage</div><div class="kv" style="display:block"><div>${st.storageUsedGb} GB of ${QUOTA_GB} GB used</div><div class="bar"><div style="width:${Math.round((100 * st.storageUsedGb) / QUOTA_GB)}%"></div></div></div>
<div class="section">Appearance</div><button class="kv" id="set-theme" onclick="show('pick-theme')"><span class="k">Theme</span><span class="v" style="color:${ACCENT}">${esc(s.theme)}</span></button>
<div class="section">Data usage</div>${sw('wifiOnly')}${sw('photoBackup')}
<div class="section">Notifications</div>${sw('notifyShares')}${sw('notifyComments')}
<div class="section">About</div><div class="kv"><span class="k">Version</span><span class="v" style="font-weight:normal">3.18.2</span></div>
${pickerDialog('pick-theme', 'Theme', THEMES, s.theme, 'pickTheme')}`;
  const script = `function pickTheme(v){api('setting',{key:'theme',value:v}).then(r=>{if(r.ok)reload()})}
function sw(el){const on=el.getAttribute('aria-checked')!=='true';api('setting',{key:el.dataset.k,value:on}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(on));el.querySelector('.switch').classList.toggle('on',on)})}`;
  return page(st, ctx, { title: 'Settings', body, back: true, script, menu: [['Trash', `${ctx.base}/trash`]] });
}

/** "f:12" → the file, "d:3" → the folder (with the fields both have). */
function itemOf(st: DriveState, item: string): { id: number; name: string; parentId: number | null; folder: boolean; trashed: boolean } | undefined {
  const id = Number(item.slice(2));
  if (item.startsWith('f:')) {
    const f = fileOf(st, id);
    return f && { id: f.id, name: f.name, parentId: f.parentId, folder: false, trashed: f.trashed };
  }
  if (item.startsWith('d:') && id !== ROOT_ID) {
    const d = folderOf(st, id);
    return d && { id: d.id, name: d.name, parentId: d.parentId, folder: true, trashed: d.trashed };
  }
  return undefined;
}

function uniqueName(taken: readonly string[], base: string, ext: string): string {
  const has = (n: string): boolean => taken.some((t) => t.toLowerCase() === n.toLowerCase());
  if (!has(`${base}${ext}`)) return `${base}${ext}`;
  for (let i = 1; ; i++) if (!has(`${base} (${i})${ext}`)) return `${base} (${i})${ext}`;
}

function handleApi(st: DriveState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  const ownFile = (id: unknown): DriveFile | undefined => {
    const f = fileOf(st, Number(id));
    return f && mine(f) && !f.trashed ? f : undefined;
  };
  switch (action) {
    case 'mkdir': {
      const parent = liveFolder(st, Number(b.parent));
      if (!parent) return json({ ok: false, error: 'That folder no longer exists' }, 404);
      const typed = cleanName(str(b.name));
      const name = typed || uniqueName(childFolders(st, parent.id).map((d) => d.name), 'Untitled folder', '');
      const err = folderNameError(st, parent.id, name);
      if (err) return json({ ok: false, error: err });
      const id = 201 + st.folders.filter((d) => !d.seeded).length;
      st.folders.push({ id, name, parentId: parent.id, starred: false, trashed: false, deleted: false, seeded: false, seq: st.seq, daysAgo: 0 });
      st.flash = `Created “${name}”`;
      return json({ ok: true, id });
    }
    case 'newdoc': {
      const parent = liveFolder(st, Number(b.parent));
      if (!parent) return json({ ok: false, error: 'That folder no longer exists' }, 404);
      const kind: FileKind = b.kind === 'sheet' ? 'sheet' : 'doc';
      const name = uniqueName(
        childFiles(st, parent.id).map((f) => f.name),
        kind === 'sheet' ? 'Untitled spreadsheet' : 'Untitled document',
        kind === 'sheet' ? '.xlsx' : '.docx',
      );
      const id = 901 + st.files.filter((f) => !f.seeded).length;
      st.files.push({ id, name, kind, parentId: parent.id, owner: USER_EMAIL, sizeKb: 1, daysAgo: 0, starred: false, offline: false, trashed: false, deleted: false, shares: [], link: 'Restricted', seeded: false, seq: st.seq });
      st.flash = `Created “${name}”`;
      return json({ ok: true, id });
    }
    case 'star': {
      const item = str(b.item);
      const on = b.on === true;
      if (item.startsWith('f:')) {
        const f = fileOf(st, Number(item.slice(2)));
        if (!f || f.trashed) return json({ ok: false }, 404);
        f.starred = on;
      } else {
        const d = itemOf(st, item) && folderOf(st, Number(item.slice(2)));
        if (!d || d.trashed) return json({ ok: false }, 404);
        d.starred = on;
      }
      st.flash = on ? 'Added to Starred' : 'Removed from Starred';
      return json({ ok: true });
    }
    case 'offline': {
      const f = fileOf(st, Number(b.file));
      if (!f || f.trashed) return json({ ok: false }, 404);
      f.offline = b.on === true;
      st.flash = f.offline ? `“${f.name}” will be available offline` : `“${f.name}” is no longer available offline`;
      return json({ ok: true, offline: f.offline });
    }
    case 'rename': {
      const item = str(b.item);
      const name = cleanName(str(b.name));
      if (item.startsWith('f:')) {
        const f = ownFile(item.slice(2));
        if (!f) return json({ ok: false, error: 'You can’t rename this file' }, 409);
        const err = fileNameError(name);
        if (err) return json({ ok: false, error: err });
        f.name = name;
      } else {
        const d = itemOf(st, item) && folderOf(st, Number(item.slice(2)));
        if (!d || d.trashed || d.parentId === null) return json({ ok: false, error: 'You can’t rename this folder' }, 409);
        const err = fileNameError(name) || folderNameError(st, d.parentId, name, d.id);
        if (err) return json({ ok: false, error: err });
        d.name = name;
      }
      st.flash = `Renamed to “${name}”`;
      return json({ ok: true });
    }
    case 'trash': {
      const item = str(b.item);
      const it = itemOf(st, item);
      if (!it || it.trashed || it.parentId === null) return json({ ok: false }, 409);
      if (it.folder) folderOf(st, it.id)!.trashed = true;
      else fileOf(st, it.id)!.trashed = true;
      st.flash = `“${it.name}” moved to trash`;
      st.flashUndo = item;
      return json({ ok: true });
    }
    case 'restore': {
      const item = str(b.item);
      const it = itemOf(st, item);
      if (!it || !it.trashed) return json({ ok: false }, 409);
      const f = it.folder ? folderOf(st, it.id)! : fileOf(st, it.id)!;
      f.trashed = false;
      if (f.parentId !== null && !liveFolder(st, f.parentId)) f.parentId = ROOT_ID;
      st.flash = `“${it.name}” restored`;
      return json({ ok: true });
    }
    case 'purge': {
      const it = itemOf(st, str(b.item));
      if (!it || !it.trashed) return json({ ok: false }, 409);
      (it.folder ? folderOf(st, it.id)! : fileOf(st, it.id)!).deleted = true;
      st.flash = 'Deleted forever';
      return json({ ok: true });
    }
    case 'empty-trash':
      for (const d of st.folders) if (d.trashed) d.deleted = true;
      for (const f of st.files) if (f.trashed) f.deleted = true;
      st.flash = 'Trash emptied';
      return json({ ok: true });
    case 'move': {
      const item = str(b.item);
      const it = itemOf(st, item);
      const to = liveFolder(st, Number(b.to));
      if (!it || it.trashed || it.parentId === null || !to) return json({ ok: false, error: 'Can’t move this item' }, 409);
      if (it.folder && within(st, to.id, it.id)) return json({ ok: false, error: 'You can’t move a folder into itself' });
      if (it.folder && folderNameError(st, to.id, it.name, it.id)) return json({ ok: false, error: `There’s already a folder called “${it.name}” in ${to.name}` });
      if (it.parentId === to.id) return json({ ok: false, error: `Already in ${to.name}` });
      if (it.folder) folderOf(st, it.id)!.parentId = to.id;
      else fileOf(st, it.id)!.parentId = to.id;
      st.flash = `Moved to ${to.name}`;
      return json({ ok: true });
    }
    case 'share': {
      const f = ownFile(b.file);
      if (!f) return json({ ok: false, error: 'You can’t share this file' }, 409);
      const role = ROLES.find((r) => r === str(b.role));
      if (!role) return json({ ok: false, error: 'Pick a role' }, 400);
      const emails = Array.isArray(b.emails) ? b.emails.map((e) => str(e).trim().toLowerCase()).filter(Boolean) : [];
      if (!emails.length) return json({ ok: false, error: 'Add at least one person' });
      if (emails.some((e) => !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(e))) return json({ ok: false, error: 'Check the email addresses' });
      if (emails.includes(USER_EMAIL)) return json({ ok: false, error: 'You already own this file' });
      for (const e of emails) {
        const had = f.shares.find((s) => s.email === e);
        if (had) had.role = role;
        else f.shares.push({ email: e, role });
      }
      st.flash = emails.length === 1 ? `Shared with ${personName(st, emails[0]!)}` : `Shared with ${emails.length} people`;
      return json({ ok: true });
    }
    case 'access': {
      const f = ownFile(b.file);
      const email = str(b.email);
      const s = f?.shares.find((x) => x.email === email);
      if (!f || !s) return json({ ok: false }, 404);
      if (b.role === 'remove') {
        f.shares = f.shares.filter((x) => x !== s);
        st.flash = `Removed ${personName(st, email)}`;
        return json({ ok: true });
      }
      const role = ROLES.find((r) => r === str(b.role));
      if (!role) return json({ ok: false }, 400);
      s.role = role;
      st.flash = `${personName(st, email)} is now ${role === 'Editor' ? 'an' : 'a'} ${role.toLowerCase()}`;
      return json({ ok: true });
    }
    case 'link': {
      const f = ownFile(b.file);
      const v = LINK_ACCESS.find((x) => x === str(b.value));
      if (!f || !v) return json({ ok: false }, 400);
      f.link = v as LinkAccess;
      st.flash = v === 'Restricted' ? 'Only people with access can open the link' : 'Anyone with the link can view';
      return json({ ok: true });
    }
    case 'sort': {
      const v = SORT_KEYS.find((x) => x === str(b.value));
      if (!v) return json({ ok: false }, 400);
      st.sort = v as SortKey;
      return json({ ok: true });
    }
    case 'setting': {
      const key = str(b.key);
      if (key === 'theme') {
        if (!THEMES.includes(str(b.value))) return json({ ok: false }, 400);
        st.settings.theme = str(b.value);
        return json({ ok: true });
      }
      if (SWITCHES.some(([k]) => k === key)) {
        (st.settings[key as keyof Settings] as boolean) = b.value === true;
        return json({ ok: true });
      }
      return json({ ok: false }, 400);
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

const safeBack = (raw: string | null, fallback: string): string => (raw && raw.startsWith('/') && !raw.startsWith('//') ? raw : fallback);

export function handleDrive(st: DriveState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const id = Number(arg);
  switch (head) {
    case undefined:
      return homePage(st, ctx);
    case 'search':
      return searchPage(st, ctx, (req.query.get('q') ?? '').slice(0, 80), req.query.get('type') ?? '');
    case 'starred':
      return starredPage(st, ctx);
    case 'shared':
      return sharedPage(st, ctx);
    case 'files':
      return folderPage(st, ctx, folderOf(st, ROOT_ID)!);
    case 'folder': {
      const d = liveFolder(st, id);
      return d ? folderPage(st, ctx, d) : notFound(CSS);
    }
    case 'file': {
      const f = fileOf(st, id);
      if (!f) return notFound(CSS);
      if (sub === 'share') return mine(f) && !f.trashed ? sharePage(st, ctx, f, safeBack(req.query.get('back'), `/file/${f.id}`)) : notFound(CSS);
      return sub ? notFound(CSS) : filePage(st, ctx, f);
    }
    case 'move':
      return movePage(st, ctx, req.query.get('item') ?? '', req.query.get('at') ?? '', safeBack(req.query.get('back'), '/files'));
    case 'trash':
      return trashPage(st, ctx);
    case 'offline':
      return offlinePage(st, ctx);
    case 'settings':
      return settingsPage(st, ctx);
    default:
      return notFound(CSS);
  }
}
