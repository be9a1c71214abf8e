import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, tabBar, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import { addDays, BRANCHES, type Book, type LibraryState, type Loan } from './state.js';

const ACCENT = '#2b7a3b';
const CSS =
  kitCss(ACCENT, '#d3f9d8') +
  `
body{background:#f3f7f2}
.tabs{display:flex;background:#fff;border-bottom:1px solid #dfe7dc}
.tabs a{flex:1;text-align:center;padding:14px 0;font-size:17px;font-weight:bold;color:#5f6670;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.search{display:flex;gap:8px;padding:12px;background:#fff;border-bottom:1px solid #dfe7dc}
.search input{flex:1;height:48px;border:2px solid #cfd8cc;border-radius:10px;padding:0 14px;font-size:17px;outline:none}
.search input:focus{border-color:${ACCENT}}
.search button{height:48px;padding:0 16px;border-radius:10px;background:${ACCENT};color:#fff;font-weight:bold;font-size:16px}
.badge{font-size:14px;font-weight:bold;border-radius:10px;padding:3px 9px;flex:none}
.badge.in{background:#d3f9d8;color:#1b5e20}
.badge.out{background:#ffe3e3;color:#a61e1e}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #dfe7dc}
.card h2{margin:0 0 6px;font-size:24px}
.card .by{font-size:17px;color:#4a4f57;margin-bottom:12px}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
`;

const tabs = (ctx: AppContext, on: 'catalog' | 'loans' | 'holds'): string =>
  tabBar(
    [
      ['catalog', 'Catalog', `${ctx.base}/`],
      ['loans', 'My loans', `${ctx.base}/loans`],
      ['holds', 'Holds', `${ctx.base}/holds`],
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['My loans', `${ctx.base}/loans`],
    ['Holds', `${ctx.base}/holds`],
  ]);

const bookRow = (b: Book, ctx: AppContext): string =>
  `<a class="row" href="${ctx.base}/b/${b.id}"><div class="info"><div class="t">${esc(b.title)}</div><div class="s">${esc(b.author)}</div></div>
<span class="badge ${b.available ? 'in' : 'out'}">${b.available ? 'Available' : 'All copies out'}</span></a>`;

function catalogPage(state: LibraryState, ctx: AppContext, q: string): AppResponse {
  const needle = q.trim().toLowerCase();
  if (needle) state.searches.push(q.trim());
  const books = state.books.filter((b) => !needle || b.title.toLowerCase().includes(needle) || b.author.toLowerCase().includes(needle));
  const body = `${appbar('Library')}${tabs(ctx, 'catalog')}
<form class="search" method="get" action="${ctx.base}/" role="search"><input name="q" type="search" placeholder="Search title or author" aria-label="Search title or author" value="${esc(q)}" autocomplete="off"><button type="submit">Search</button></form>
<div class="section">${needle ? `Results for &ldquo;${esc(q.trim())}&rdquo;` : 'All books'}</div>
${books.map((b) => bookRow(b, ctx)).join('') || `<div class="empty">No books match &ldquo;${esc(q.trim())}&rdquo;</div>`}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Library', css: CSS, body, ctx, root: true });
}

function bookPage(state: LibraryState, ctx: AppContext, b: Book): AppResponse {
  const mine = state.loans.find((l) => l.bookId === b.id && !l.returned);
  const held = state.holds.find((h) => h.bookId === b.id && !h.cancelled);
  const due = addDays('Jun 2', 14);
  const action = mine
    ? `<a class="primary" href="${ctx.base}/l/${b.id}">You have this book &middot; due ${esc(mine.due)}</a>`
    : b.available
      ? `<button class="primary" onclick="show('borrow')">Borrow</button>`
      : held
        ? `<div class="muted" style="padding:0 16px">On hold for pickup at ${esc(held.branch)}</div>`
        : `<a class="primary" href="${ctx.base}/b/${b.id}/hold">Place hold</a>`;
  const body = `${appbar('Book', { back: true })}
<div class="card"><h2>${esc(b.title)}</h2><div class="by">by ${esc(b.author)}</div><span class="badge ${b.available ? 'in' : 'out'}">${b.available ? 'Available' : 'All copies out'}</span></div>
${action}${menu(ctx)}
${confirmDialog('borrow', 'Borrow this book?', `"${b.title}" will be due on ${due}.`, 'Borrow', 'borrow()')}`;
  const script = `function borrow(){api('borrow',{id:${b.id}}).then(r=>{if(r.ok)location.replace(BASE+'/loans?toast=borrowed')})}`;
  return renderPage({ title: b.title, css: CSS, body, ctx, script });
}

function holdPage(ctx: AppContext, b: Book): AppResponse {
  const first = BRANCHES[0] ?? '';
  const body = `${appbar('Place hold', { back: true, menu: false })}
<div class="card"><h2>${esc(b.title)}</h2><div class="by">by ${esc(b.author)}</div></div>
<div class="field"><label>Pickup branch</label><button class="pick" onclick="show('branch')"><span id="branch-v">${esc(first)}</span><span>&#9662;</span></button></div>
<button class="primary" onclick="hold()">Confirm hold</button>
${pickerDialog('branch', 'Pickup branch', BRANCHES, first, 'pick')}`;
  const script = `let BRANCH=${JSON.stringify(first)};
function pick(v){BRANCH=v;document.getElementById('branch-v').textContent=v;
 for(const o of document.querySelectorAll('#branch .opt')){const s=o.dataset.v===v;o.classList.toggle('sel',s);o.setAttribute('aria-checked',String(s))}hide('branch')}
function hold(){api('hold',{id:${b.id},branch:BRANCH}).then(r=>{if(r.ok)location.replace(BASE+'/holds?toast=hold')})}`;
  return renderPage({ title: 'Place hold', css: CSS, body, ctx, script });
}

function loansPage(state: LibraryState, ctx: AppContext, toastKind: string): AppResponse {
  const loans = state.loans.filter((l) => !l.returned);
  const rows = loans
    .map((l) => {
      const b = state.books.find((x) => x.id === l.bookId);
      return `<a class="row" href="${ctx.base}/l/${l.bookId}"><div class="info"><div class="t">${esc(b?.title ?? '')}</div><div class="s">${esc(b?.author ?? '')}</div></div><span class="v">Due ${esc(l.due)}</span></a>`;
    })
    .join('');
  const t = toastKind === 'borrowed' ? toast('Book borrowed') : toastKind === 'returned' ? toast('Book returned') : '';
  const body = `${appbar('My loans')}${tabs(ctx, 'loans')}<div class="section">Checked out (${loans.length})</div>${rows || '<div class="empty">No books checked out</div>'}${menu(ctx)}${t}`;
  return renderPage({ title: 'My loans', css: CSS, body, ctx, root: true });
}

function loanPage(ctx: AppContext, b: Book, l: Loan, toastKind: string): AppResponse {
  const body = `${appbar('Loan', { back: true })}
<div class="card"><h2>${esc(b.title)}</h2><div class="by">by ${esc(b.author)}</div><div style="font-size:18px">Due <b>${esc(l.due)}</b>${l.renewals ? ` &middot; renewed ${l.renewals}&times;` : ''}</div></div>
<button class="primary" onclick="renew()">Renew</button>
<button class="primary" style="background:#fff!important;color:${ACCENT}!important;border:2px solid ${ACCENT}" onclick="show('ret')">Return</button>
${confirmDialog('ret', 'Return this book?', `"${b.title}" will be checked in.`, 'Return', 'ret()')}${menu(ctx)}
${toastKind === 'renewed' ? toast(`Renewed until ${l.due}`) : ''}`;
  const script = `function renew(){api('renew',{id:${b.id}}).then(r=>{if(r.ok)location.replace(BASE+'/l/${b.id}?toast=renewed')})}
function ret(){api('return',{id:${b.id}}).then(r=>{if(r.ok)location.replace(BASE+'/loans?toast=returned')})}`;
  return renderPage({ title: b.title, css: CSS, body, ctx, script });
}

function holdsPage(state: LibraryState, ctx: AppContext, toastKind: string): AppResponse {
  const holds = state.holds.filter((h) => !h.cancelled);
  const rows = holds
    .map((h) => {
      const b = state.books.find((x) => x.id === h.bookId);
      return `<div class="row"><div class="info"><div class="t">${esc(b?.title ?? '')}</div><div class="s">Pickup at ${esc(h.branch)}</div></div><button class="chip" onclick="cancelHold(${h.bookId})">Cancel hold</button></div>`;
    })
    .join('');
  const body = `${appbar('Holds')}${tabs(ctx, 'holds')}<div class="section">Holds (${holds.length})</div>${rows || '<div class="empty">No holds</div>'}${menu(ctx)}${toastKind === 'hold' ? toast('Hold placed') : ''}`;
  const script = `function cancelHold(id){api('cancel',{id}).then(()=>location.replace(BASE+'/holds'))}`;
  return renderPage({ title: 'Holds', css: CSS, body, ctx, script, root: true });
}

function handleApi(state: LibraryState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  const book = state.books.find((x) => x.id === Number(b.id));
  if (!book) return json({ ok: false, error: 'unknown book' }, 404);
  const loan = state.loans.find((l) => l.bookId === book.id && !l.returned);
  switch (action) {
    case 'borrow':
      if (!book.available || loan) return json({ ok: false, error: 'not available' });
      book.available = false;
      state.loans.push({ bookId: book.id, due: addDays('Jun 2', 14), renewals: 0, seeded: false, returned: false });
      return json({ ok: true });
    case 'renew':
      if (!loan) return json({ ok: false }, 404);
      loan.due = addDays(loan.due, 14);
      loan.renewals += 1;
      return json({ ok: true });
    case 'return':
      if (!loan) return json({ ok: false }, 404);
      loan.returned = true;
      book.available = true;
      return json({ ok: true });
    case 'hold': {
      const branch = str(b.branch);
      if (book.available || !BRANCHES.includes(branch)) return json({ ok: false, error: 'cannot hold' });
      if (state.holds.some((h) => h.bookId === book.id && !h.cancelled)) return json({ ok: true });
      state.holds.push({ bookId: book.id, branch, cancelled: false });
      return json({ ok: true });
    }
    case 'cancel':
      for (const h of state.holds) if (h.bookId === book.id) h.cancelled = true;
      return json({ ok: true });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleLibrary(state: LibraryState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return catalogPage(state, ctx, req.query.get('q') ?? '');
  if (head === 'loans') return loansPage(state, ctx, t);
  if (head === 'holds') return holdsPage(state, ctx, t);
  const b = arg ? state.books.find((x) => x.id === Number(arg)) : undefined;
  if (head === 'b' && b && sub === undefined) return bookPage(state, ctx, b);
  if (head === 'b' && b && sub === 'hold') return holdPage(ctx, b);
  if (head === 'l' && b) {
    const l = state.loans.find((x) => x.bookId === b.id && !x.returned);
    if (l) return loanPage(ctx, b, l, t);
  }
  return notFound(CSS);
}
