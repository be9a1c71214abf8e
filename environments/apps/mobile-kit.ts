/**
 * Building blocks shared by the ShopMart, Contacts, Messages and Calendar apps: Material-style CSS themed by
 * an accent colour, app bar, dialogs, bottom sheets, toasts, long-press wiring and JSON helpers.
 * Everything is rendered server-side; the page scripts are plain ES2020.
 */
import type { AppContext, AppResponse } from '../app-types.js';
import { esc, pageShell } from './shared.js';

export const json = (v: unknown, status = 200): AppResponse => ({ status, type: 'json', body: JSON.stringify(v) });
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const bodyOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();
export const sameText = (a: string, b: string): boolean => norm(a) === norm(b);
export const digits = (s: string): string => s.replace(/\D/g, '');

export function kitCss(accent: string, accentSoft: string): string {
  return `
body{background:#f6f7f9}
.appbar{position:sticky;top:28px;z-index:20;height:58px;display:flex;align-items:center;gap:6px;padding:0 8px 0 10px;
 background:${accent};color:#fff;box-shadow:0 2px 4px rgba(0,0,0,.15)}
.appbar h1{font-size:21px;margin:0 0 0 6px;flex:1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.appbar .icon{min-width:44px;height:44px;font-size:24px;line-height:44px;text-align:center;border-radius:22px;color:#fff}
.appbar .txt{font-size:17px;font-weight:bold;padding:0 12px;height:44px;border-radius:22px;color:#fff}
.overflow{position:fixed;top:82px;right:8px;z-index:60;background:#fff;border-radius:10px;box-shadow:0 6px 24px rgba(0,0,0,.25);min-width:200px;padding:6px 0}
.overflow a,.overflow button{display:block;width:100%;text-align:left;padding:14px 18px;font-size:17px;color:#1f2328}
.section{padding:14px 16px 6px;font-size:16px;font-weight:bold;color:${accent};text-transform:none}
.row{display:flex;gap:14px;align-items:center;padding:12px 16px;min-height:64px;background:#fff;border-bottom:1px solid #eceef1}
.row .info{flex:1;min-width:0}
.row .name{font-size:18px;font-weight:bold;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.muted{color:#5a616b;font-size:15px}
.avatar{width:46px;height:46px;border-radius:23px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.empty{padding:40px 24px;text-align:center;font-size:18px;color:#5a616b}
.spacer{height:100px}
.primary{display:block;margin:16px 12px;height:54px;border-radius:27px;background:${accent}!important;color:#fff!important;font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:54px}
.secondary{display:block;margin:12px;height:50px;border-radius:25px;border:2px solid ${accent}!important;color:${accent}!important;font-size:17px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:46px;background:#fff!important}
.danger{color:#c92a2a!important;border-color:#c92a2a!important}
.fab{position:fixed;right:18px;bottom:22px;z-index:25;height:58px;padding:0 22px;border-radius:29px;background:${accent}!important;color:#fff!important;
 font-size:18px;font-weight:bold;display:flex;align-items:center;gap:8px;box-shadow:0 4px 12px rgba(0,0,0,.3)}
.fab .plus{font-size:28px;line-height:28px}
.field{margin:12px;padding:12px 14px;background:#fff;border-radius:12px}
.field label{display:block;font-size:16px;font-weight:bold;margin-bottom:8px;color:#2b2f36}
.field input{width:100%;height:50px;border:2px solid #cfd4da;border-radius:10px;padding:0 14px;font-size:17px;outline:none;background:#fff}
.field input:focus{border-color:${accent}}
.field.bad input{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.error{color:#c92a2a;font-size:16px;font-weight:bold;padding:0 16px;min-height:20px}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.chip{min-height:44px;padding:0 16px;border:2px solid #cfd4da!important;border-radius:22px;font-size:16px;font-weight:bold;background:#fff!important;color:#2b2f36!important}
.chip.sel{border-color:${accent}!important;background:${accentSoft}!important;color:${accent}!important}
.scrim{position:fixed;inset:0;z-index:70;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center}
.dialog{background:#fff;border-radius:16px;width:330px;padding:22px 22px 10px;box-shadow:0 10px 30px rgba(0,0,0,.3)}
.dialog h2{margin:0 0 10px;font-size:21px}
.dialog p{margin:0 0 14px;font-size:16px;color:#3b4048}
.dialog .acts{display:flex;justify-content:flex-end;gap:8px}
.dialog .acts button{padding:12px 16px;font-size:17px;font-weight:bold;color:${accent};border-radius:8px}
.dialog .acts button.destroy{color:#c92a2a}
.sheet{position:fixed;left:0;right:0;bottom:0;background:#fff;border-radius:16px 16px 0 0;padding:8px 0 16px}
.sheet .t{padding:12px 20px;font-size:16px;color:#5a616b;font-weight:bold}
.sheet button{display:block;width:100%;text-align:left;padding:16px 20px;font-size:18px}
.toast{position:fixed;left:50%;bottom:100px;transform:translateX(-50%);z-index:90;background:#2b2f36;color:#fff;padding:14px 24px;border-radius:24px;font-size:16px;font-weight:bold;white-space:nowrap;box-shadow:0 4px 12px rgba(0,0,0,.3)}
.spin{width:44px;height:44px;border-radius:50%;border:5px solid ${accentSoft};border-top-color:${accent};animation:tfspin .8s linear infinite;margin:0 auto}
@keyframes tfspin{to{transform:rotate(360deg)}}
.hint{padding:8px 16px;font-size:15px;color:#5a616b}
`;
}

export function appbar(title: string, opts: { back: boolean; right?: string; menu?: boolean }): string {
  return `<header class="appbar">${opts.back ? `<button class="icon" aria-label="Back" onclick="history.back()">&larr;</button>` : ''}
<h1>${esc(title)}</h1>${opts.right ?? ''}${opts.menu === false ? '' : `<button class="icon" aria-label="More options" onclick="__tfMenu()">&#8942;</button>`}</header>`;
}

/** Overflow menu (opened by the ⋮ button or the Menu key) with links. */
export function overflowMenu(items: readonly { label: string; href: string }[]): string {
  return `<div id="overflow" class="overflow" data-overlay hidden role="menu">${items.map((i) => `<a href="${i.href}" role="menuitem">${esc(i.label)}</a>`).join('')}</div>`;
}

/** A confirmation dialog; `confirmJs` runs on the destructive button. Open it with `openDlg('id')`. */
export function confirmDialog(id: string, opts: { title: string; text: string; confirm: string; confirmJs: string; destroy?: boolean }): string {
  return `<div id="${id}" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="${esc(opts.title)}"><h2 id="${id}-title">${esc(opts.title)}</h2>
<p id="${id}-text">${esc(opts.text)}</p><div class="acts"><button onclick="document.getElementById('${id}').hidden=true">Cancel</button>
<button class="${opts.destroy ? 'destroy' : ''}" id="${id}-ok" onclick="${esc(opts.confirmJs)}">${esc(opts.confirm)}</button></div></div></div>`;
}

/** A bottom sheet of actions (long-press menus). Each item's `js` sees the global `ctxTarget` (the pressed row). */
export function actionSheet(id: string, items: readonly { label: string; js: string }[]): string {
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)this.hidden=true" style="align-items:flex-end"><div class="sheet" role="menu"><div class="t" id="${id}-title"></div>
${items.map((i) => `<button role="menuitem" onclick="${esc(i.js)}">${esc(i.label)}</button>`).join('')}<button role="menuitem" onclick="document.getElementById('${id}').hidden=true">Cancel</button></div></div>`;
}

/**
 * Client helpers: `api(action, body)` posts JSON to the app, `toast(text)` shows a snackbar for 2.5 s,
 * `longPress(el, fn)` fires `fn` after a 500 ms touch hold (and swallows the click that follows the lift),
 * `openDlg(id)` shows an overlay. A `?toast=` query parameter shows a toast on load.
 */
export function clientJs(ctx: AppContext): string {
  return `const BASE=${JSON.stringify(ctx.base)};
function api(a,b){return fetch(BASE+'/api/'+a,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b||{})}).then(r=>r.json())}
let toastTimer=null;
function toast(t){let el=document.getElementById('toast');if(!el){el=document.createElement('div');el.id='toast';el.className='toast';el.setAttribute('role','status');document.body.appendChild(el)}
 el.textContent=t;el.hidden=false;clearTimeout(toastTimer);toastTimer=setTimeout(()=>{el.hidden=true},2500)}
function openDlg(id){document.getElementById(id).hidden=false}
let ctxTarget=null,lpTimer=null,lpFired=false;
function longPress(el,fn){
 el.addEventListener('touchstart',e=>{lpFired=false;clearTimeout(lpTimer);lpTimer=setTimeout(()=>{lpFired=true;ctxTarget=el;fn(el)},500)},{passive:true});
 el.addEventListener('touchmove',()=>clearTimeout(lpTimer),{passive:true});
 el.addEventListener('touchend',e=>{clearTimeout(lpTimer);if(lpFired){e.preventDefault();lpFired=false}});
 el.addEventListener('click',e=>{if(lpFired){e.preventDefault();lpFired=false}},true);
 el.addEventListener('contextmenu',e=>{e.preventDefault();clearTimeout(lpTimer);ctxTarget=el;fn(el)});
}
function openSheet(id,el,title){ctxTarget=el;document.getElementById(id+'-title').textContent=title;document.getElementById(id).hidden=false}
(()=>{const q=new URLSearchParams(location.search).get('toast');if(q){toast(q);history.replaceState(null,'',location.pathname+location.search.replace(/[?&]toast=[^&]*/,'').replace(/^&/,'?'))}})();
`;
}

export function renderPage(opts: { title: string; css: string; ctx: AppContext; body: string; script?: string; root?: boolean }): AppResponse {
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

export function notFound(css: string, what = 'Page not found'): AppResponse {
  return { status: 404, type: 'html', body: pageShell({ title: 'Not found', css, body: `<div class="empty">${esc(what)}</div>` }) };
}

/** Two-letter initials for an avatar. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');

const AVATAR_COLORS = ['#1971c2', '#c2255c', '#2f9e44', '#e8590c', '#7048e8', '#0c8599', '#a61e4d', '#5c940d', '#364fc7', '#d6336c'];
export function avatarColor(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLORS[h % AVATAR_COLORS.length] ?? '#1971c2';
}
export const avatar = (name: string, size = 46): string =>
  `<div class="avatar" style="background:${avatarColor(name)};width:${size}px;height:${size}px;border-radius:${size / 2}px;font-size:${Math.round(size * 0.4)}px">${esc(initials(name))}</div>`;
