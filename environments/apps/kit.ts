/**
 * Small UI kit shared by the notes, settings, mail and clock apps: Material-like CSS, app bar, bottom
 * sheet / dialog / toast markup, the long-press wiring and JSON helpers. Pages stay server-rendered HTML
 * strings with a little vanilla JS, like Foodie.
 */
import { readFileSync } from 'node:fs';
import { AppDag } from '../../domain/dag.js';
import { parseOrThrow } from '../../domain/errors.js';
import type { AppContext, AppRequest, AppResponse, CheckResult } from '../app-types.js';
import { esc, pageShell } from './shared.js';

export const loadDag = (url: URL, label: string): AppDag => parseOrThrow(AppDag, JSON.parse(readFileSync(url, 'utf8')), label);

export const ok = (reason: string): CheckResult => ({ success: true, reason });
export const no = (reason: string): CheckResult => ({ success: false, reason });

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();
export const same = (a: string, b: string): boolean => norm(a) === norm(b);
export const contains = (hay: string, needle: string): boolean => norm(hay).includes(norm(needle));

export const json = (v: unknown, status = 200): AppResponse => ({ status, type: 'json', body: JSON.stringify(v) });
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const bodyOf = (req: AppRequest): Record<string, unknown> =>
  typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};

/** Theme-dependent CSS; `accent` colours the app bar, switches and primary buttons. */
export function kitCss(accent: string, tint: string): string {
  return `
.appbar{position:sticky;top:28px;z-index:20;height:58px;display:flex;align-items:center;gap:6px;padding:0 6px 0 12px;
 background:${accent};color:#fff;box-shadow:0 2px 4px rgba(0,0,0,.15)}
.appbar h1{font-size:21px;margin:0 0 0 4px;flex:1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.appbar .icon{min-width:44px;height:44px;font-size:24px;line-height:44px;text-align:center;border-radius:22px;color:#fff;padding:0 6px}
.appbar .txt{font-size:17px;font-weight:bold;padding:0 12px}
.overflow{position:fixed;top:82px;right:8px;z-index:60;background:#fff;border-radius:10px;box-shadow:0 6px 24px rgba(0,0,0,.25);min-width:200px;padding:6px 0}
.overflow a,.overflow button{display:block;width:100%;text-align:left;padding:14px 18px;font-size:17px;color:#1f2328}
.section{padding:18px 16px 6px;font-size:15px;font-weight:bold;color:${accent};text-transform:uppercase;letter-spacing:.4px}
.row{display:flex;gap:14px;align-items:center;min-height:64px;padding:10px 16px;background:#fff;border-bottom:1px solid #eceef1;width:100%;text-align:left}
.row .info{flex:1;min-width:0}
.row .t{font-size:18px;color:#1f2328}
.row .s{font-size:15px;color:#5f6670;margin-top:3px}
.row .v{font-size:16px;color:${accent};font-weight:bold}
.muted{color:#5f6670;font-size:15px}
.av{width:44px;height:44px;border-radius:22px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:19px;font-weight:bold}
.switch{flex:none;width:52px;height:30px;border-radius:15px;background:#adb5bd;position:relative}
.switch:after{content:'';position:absolute;top:3px;left:3px;width:24px;height:24px;border-radius:12px;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.3)}
.switch.on{background:${accent}}
.switch.on:after{left:25px}
.empty{padding:48px 24px;text-align:center;font-size:18px;color:#5f6670}
.spacer{height:96px}
.fab{position:fixed;right:18px;bottom:24px;z-index:25;height:58px;min-width:58px;padding:0 20px;border-radius:18px;background:${accent};color:#fff;
 font-size:18px;font-weight:bold;display:flex;align-items:center;justify-content:center;gap:8px;box-shadow:0 4px 12px rgba(0,0,0,.3)}
.fab .plus{font-size:30px;line-height:30px}
.field{margin:12px;padding:12px 14px;background:#fff;border-radius:12px}
.field label{display:block;font-size:16px;font-weight:bold;margin-bottom:8px;color:#2b2f36}
.field input,.field textarea{width:100%;border:2px solid #d0d4da;border-radius:10px;padding:10px 14px;font:inherit;font-size:18px;outline:none;background:#fff;color:#1f2328}
.field input{height:52px}
.field textarea{height:180px;resize:none}
.field input:focus,.field textarea:focus{border-color:${accent}}
textarea{-webkit-user-select:text;user-select:text}
.primary{display:block;margin:16px 12px;height:54px;border-radius:27px;background:${accent}!important;color:#fff!important;font-size:19px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:54px}
.error{color:#c92a2a;font-size:16px;font-weight:bold;padding:4px 16px;min-height:24px}
.scrim{position:fixed;inset:0;z-index:70;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center}
.scrim.bottom{align-items:flex-end}
.dialog{background:#fff;border-radius:18px;width:330px;max-height:80vh;overflow:auto;padding:22px 22px 10px;box-shadow:0 10px 30px rgba(0,0,0,.3)}
.dialog h2{margin:0 0 10px;font-size:21px}
.dialog p{margin:0 0 14px;font-size:16px;color:#3b4048}
.dialog .acts{display:flex;justify-content:flex-end;gap:8px}
.dialog .acts button{padding:12px 16px;font-size:17px;font-weight:bold;color:${accent};border-radius:8px}
.dialog .opt{display:flex;align-items:center;gap:14px;width:100%;padding:13px 4px;font-size:18px;text-align:left}
.dialog .opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.dialog .opt.sel .rad{border:7px solid ${accent}}
.sheet{width:100%;background:#fff;border-radius:16px 16px 0 0;padding:8px 0 16px}
.sheet .t{padding:12px 20px;font-size:16px;color:#5f6670;font-weight:bold}
.sheet button{display:block;width:100%;text-align:left;padding:16px 20px;font-size:18px}
.toast{position:fixed;left:16px;right:16px;bottom:96px;z-index:80;background:#25282c;color:#fff;border-radius:10px;padding:15px 18px;font-size:17px;
 display:flex;justify-content:space-between;align-items:center;box-shadow:0 4px 14px rgba(0,0,0,.35)}
.toast button{color:${tint};font-weight:bold;font-size:17px;padding:4px 8px}
.chip{height:40px;min-width:48px;padding:0 14px;border-radius:20px;border:2px solid #ced4da;background:#fff;font-size:16px;font-weight:bold;color:#343a40}
.chip.on{background:${accent};border-color:${accent};color:#fff}
.seg{display:flex;gap:10px}
.seg button{flex:1;height:50px;border:2px solid #d0d4da;border-radius:10px;font-size:18px;font-weight:bold;background:#fff}
.seg button.on{border-color:${accent};background:${tint};color:#1f2328}
.stepper{display:flex;align-items:center;gap:6px}
.stepper button{width:44px;height:44px;border-radius:22px;border:2px solid ${accent};color:${accent};font-size:24px;font-weight:bold;line-height:38px}
.stepper .val{min-width:56px;text-align:center;font-size:18px;font-weight:bold}
`;
}

export function appbar(title: string, opts: { back?: boolean; actions?: string; menu?: boolean } = {}): string {
  return `<header class="appbar">${opts.back ? `<button class="icon" aria-label="Back" onclick="history.back()">&larr;</button>` : ''}
<h1>${esc(title)}</h1>${opts.actions ?? ''}${opts.menu === false ? '' : `<button class="icon" aria-label="More options" onclick="__tfMenu()">&#8942;</button>`}</header>`;
}

/** A row of tabs, `[id, label, href]` each; the one whose id is `on` is marked (`.tabs a.on`, styled by the app). */
export function tabBar(items: readonly (readonly [string, string, string])[], on: string): string {
  return `<nav class="tabs">${items.map(([id, label, href]) => `<a class="${id === on ? 'on' : ''}" href="${href}">${esc(label)}</a>`).join('')}</nav>`;
}

/** Overflow menu: `[label, href | js]` items (js when it starts with `js:`). */
/**
 * A bottom tab bar (class "bnav", styled by each app): one link per tab, the current one marked "on"; a tab with a glyph
 * draws it before its label and names itself by aria-label.
 */
export function bottomNav<T extends string>(tabs: readonly { id: T; label: string; href: string; glyph?: string }[], on: T): string {
  const link = (t: { id: T; label: string; href: string; glyph?: string }): string =>
    t.glyph
      ? `<a class="${t.id === on ? 'on' : ''}" href="${t.href}" aria-label="${t.label}"><span class="g" aria-hidden="true">${t.glyph}</span>${t.label}</a>`
      : `<a class="${t.id === on ? 'on' : ''}" href="${t.href}">${t.label}</a>`;
  return `<nav class="bnav">${tabs.map(link).join('')}</nav>`;
}

export function overflowMenu(items: readonly (readonly [string, string])[]): string {
  const els = items
    .map(([label, target]) =>
      target.startsWith('js:') ? `<button role="menuitem" onclick="${esc(target.slice(3))}">${esc(label)}</button>` : `<a role="menuitem" href="${esc(target)}">${esc(label)}</a>`,
    )
    .join('');
  return `<div id="overflow" class="overflow" data-overlay hidden role="menu">${els}</div>`;
}

/** A confirmation dialog, hidden until `show('<id>')`. */
export function confirmDialog(id: string, title: string, text: string, okLabel: string, okJs: string): string {
  return `<div id="${id}" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>
<p id="${id}-text">${esc(text)}</p><div class="acts"><button onclick="hide('${id}')">Cancel</button><button id="${id}-ok" onclick="${esc(okJs)}">${esc(okLabel)}</button></div></div></div>`;
}

/** A radio-list picker dialog (custom, because native <select> popups are not in screenshots). */
export function pickerDialog(id: string, title: string, options: readonly string[], current: string, onPickJs: string): string {
  const opts = options
    .map((o) => `<button class="opt${o === current ? ' sel' : ''}" role="radio" aria-checked="${o === current}" data-v="${esc(o)}" onclick="${esc(onPickJs)}(this.dataset.v)"><span class="rad"></span>${esc(o)}</button>`)
    .join('');
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>${opts}
<div class="acts"><button onclick="hide('${id}')">Cancel</button></div></div></div>`;
}

/** Bottom sheet for long-press menus; `items` are `[label, js]`. The sheet title is set at open time. */
export function actionSheet(id: string, items: readonly (readonly [string, string])[]): string {
  const btns = items.map(([label, js]) => `<button role="menuitem" data-act="${esc(label)}" onclick="${esc(js)}">${esc(label)}</button>`).join('');
  return `<div id="${id}" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="sheet" role="menu"><div class="t" id="${id}-t"></div>${btns}
<button role="menuitem" onclick="hide('${id}')">Cancel</button></div></div>`;
}

/** A toast shown on load (e.g. after a redirect), optionally with an action button. */
export function toast(text: string, action?: { label: string; js: string }): string {
  return `<div id="toast" class="toast" role="status"><span>${esc(text)}</span>${action ? `<button onclick="${esc(action.js)}">${esc(action.label)}</button>` : ''}</div>`;
}

/**
 * Client helpers: `api(action, body)`, `show(id)`/`hide(id)`, and long-press wiring: every `[data-long]`
 * element calls `onLong(el)` after a 500 ms hold (touch or contextmenu); the click after it is swallowed.
 */
export function clientJs(ctx: AppContext): string {
  return `const BASE=${JSON.stringify(ctx.base)};
function api(a,b){return fetch(BASE+'/api/'+a,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b||{})}).then(r=>r.json())}
function show(id){document.getElementById(id).hidden=false}
function hide(id){document.getElementById(id).hidden=true}
setTimeout(()=>{const t=document.getElementById('toast');if(t)t.hidden=true},4000);
let __lpTimer=null,__lpFired=false;
function __lp(el){if(__lpFired)return;__lpFired=true;if(window.onLong)window.onLong(el)}
for(const el of document.querySelectorAll('[data-long]')){
 el.addEventListener('touchstart',e=>{if(e.target.closest('[data-nolong]'))return;__lpFired=false;clearTimeout(__lpTimer);__lpTimer=setTimeout(()=>__lp(el),500)},{passive:true});
 el.addEventListener('touchmove',()=>clearTimeout(__lpTimer),{passive:true});
 el.addEventListener('touchend',e=>{clearTimeout(__lpTimer);if(__lpFired){e.preventDefault();setTimeout(()=>{__lpFired=false},50)}});
 el.addEventListener('click',e=>{if(__lpFired){e.preventDefault();e.stopPropagation()}},true);
 el.addEventListener('contextmenu',e=>{e.preventDefault();clearTimeout(__lpTimer);__lp(el)});
}
`;
}

export function renderPage(opts: { title: string; css: string; body: string; ctx: AppContext; script?: string; root?: boolean }): AppResponse {
  return {
    type: 'html',
    body: pageShell({
      title: opts.title,
      css: opts.css,
      body: opts.body,
      script: clientJs(opts.ctx) + (opts.script ?? ''),
      bodyAttrs: opts.root ? 'data-app-root' : '',
    }),
  };
}

export const notFound = (css: string): AppResponse => ({
  status: 404,
  type: 'html',
  body: pageShell({ title: 'Not found', css, body: '<div class="empty">Page not found</div>' }),
});
