import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, tabBar, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  LINE_NAMES,
  LOST_ITEMS,
  money,
  phoneDigits,
  PROFILE_PHONE,
  RELOAD_AMOUNTS,
  RELOAD_BELOW_CENTS,
  type Fare,
  type Line,
  type TransitState,
} from './state.js';

const ACCENT = '#d9480f';
const CSS =
  kitCss(ACCENT, '#ffe8cc') +
  `
body{background:#f5f3f0}
.tabs{display:flex;background:#fff;border-bottom:1px solid #e6e0da}
.tabs a{flex:1;text-align:center;padding:14px 0;font-size:16px;font-weight:bold;color:#5f6670;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.bullet{width:40px;height:40px;border-radius:20px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:15px;font-weight:bold}
.badge{font-size:14px;font-weight:bold;border-radius:10px;padding:3px 9px;flex:none;text-align:right;max-width:130px}
.badge.good{background:#d3f9d8;color:#1b5e20}
.badge.warn{background:#fff3bf;color:#7a5200}
.badge.bell{background:#ffe8cc;color:#a63c06}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #e6e0da}
.card h2{margin:0 0 6px;font-size:23px}
.card .d{font-size:17px;color:#4a4f57;margin-top:6px}
.price{font-size:17px;font-weight:bold;flex:none;color:#1f2328}
.status{margin:0 12px;padding:12px 14px;border-radius:10px;background:#d3f9d8;color:#1b5e20;font-size:17px;font-weight:bold}
.status.warn{background:#fff3bf;color:#7a5200}
.citycard{margin:12px;height:170px;border-radius:16px;padding:18px;color:#fff;background:linear-gradient(135deg,${ACCENT},#f08c00);display:flex;flex-direction:column;justify-content:space-between}
.citycard .nm{font-size:20px;font-weight:bold}
.citycard .bal{font-size:34px;font-weight:bold}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.pick.empty-v{color:#868e96}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px;min-height:4px}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1;font-size:18px}
.kv .k{color:#5f6670;flex:none}
.kv .v{font-weight:bold;text-align:right}
.intro{padding:14px 16px 0;font-size:16px;color:#4a4f57}
`;

const CARD_ON_FILE = 'Visa ••4242';

type Tab = 'lines' | 'tickets' | 'card' | 'more';
const tabs = (ctx: AppContext, on: Tab): string =>
  tabBar(
    [
      ['lines', 'Lines', `${ctx.base}/`],
      ['tickets', 'Tickets', `${ctx.base}/tickets`],
      ['card', 'Card', `${ctx.base}/card`],
      ['more', 'More', `${ctx.base}/more`],
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Buy tickets', `${ctx.base}/tickets`],
    ['CityCard', `${ctx.base}/card`],
    ['Lost and found', `${ctx.base}/lost`],
  ]);

const LINE_COLORS: Readonly<Record<string, string>> = { Red: '#c92a2a', Blue: '#1864ab', Green: '#2b8a3e', Orange: '#e8590c' };
const bulletColor = (l: Line): string => LINE_COLORS[l.name.split(' ')[0] ?? ''] ?? '#495057';
const bulletText = (l: Line): string =>
  l.kind === 'Train' ? (l.name[0] ?? '') : `${l.name.match(/\d+X?/)?.[0] ?? 'AS'}${l.name.endsWith('Night') ? 'N' : ''}`;
const bullet = (l: Line): string => `<div class="bullet" style="background:${bulletColor(l)}">${esc(bulletText(l))}</div>`;
const statusBadge = (l: Line): string => `<span class="badge ${l.status === 'Good service' ? 'good' : 'warn'}">${esc(l.status)}</span>`;

function linesPage(state: TransitState, ctx: AppContext): AppResponse {
  const row = (l: Line): string =>
    `<a class="row" href="${ctx.base}/line/${l.id}">${bullet(l)}<div class="info"><div class="t">${esc(l.name)}</div><div class="s">${esc(l.ends)}</div></div>${statusBadge(l)}</a>`;
  const trains = state.lines.filter((l) => l.kind === 'Train');
  const buses = state.lines.filter((l) => l.kind === 'Bus');
  const delayed = state.lines.filter((l) => l.status !== 'Good service').length;
  const body = `${appbar('Transit')}${tabs(ctx, 'lines')}
<div class="card"><div class="d" style="margin:0">Service status &middot; updated 9:40 AM</div><h2 style="margin:6px 0 0">${
    delayed ? `${delayed} line${delayed === 1 ? '' : 's'} with changes` : 'Good service on all lines'
  }</h2></div>
<div class="section">Trains (${trains.length})</div>${trains.map(row).join('')}
<div class="section">Buses (${buses.length})</div>${buses.map(row).join('')}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Transit', css: CSS, body, ctx, root: true });
}

/** Departure minutes for the line page, the same on every visit of a session. */
const departures = (l: Line, seed: number): number[] => {
  const first = ((seed * 7 + l.id * 3) % 9) + 2;
  const every = l.kind === 'Train' ? 8 : 15;
  return [first, first + every, first + 2 * every];
};

function linePage(state: TransitState, ctx: AppContext, l: Line, toastKind: string): AppResponse {
  const from = l.ends.split(' – ')[0] ?? l.ends;
  const body = `${appbar(l.name, { back: true })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${bullet(l)}<div><h2 style="margin:0">${esc(l.name)}</h2><div class="d" style="margin-top:2px">${esc(l.ends)}</div><div class="d" style="margin-top:2px">${l.kind} &middot; ${esc(l.runs)}</div></div></div></div>
<div class="status${l.status === 'Good service' ? '' : ' warn'}">${esc(l.status)}</div>
<div class="section">Notifications</div>
<button class="row" role="switch" aria-checked="${l.alerts}" aria-label="Service alerts" onclick="alerts(this)"><div class="info"><div class="t">Service alerts</div><div class="s">Delays, detours and planned work on this line</div></div><span class="switch${
    l.alerts ? ' on' : ''
  }"></span></button>
<div class="section">Next departures from ${esc(from)}</div>
${departures(l, state.seed)
  .map((m) => `<div class="row"><div class="info"><div class="t">${m} min</div><div class="s">Towards ${esc(l.ends.split(' – ')[1] ?? l.ends)}</div></div></div>`)
  .join('')}
<div class="spacer"></div>${menu(ctx)}${toastKind === 'on' ? toast('Service alerts on') : toastKind === 'off' ? toast('Service alerts off') : ''}`;
  const script = `function alerts(el){const on=el.getAttribute('aria-checked')!=='true';api('alerts',{id:${l.id},on}).then(r=>{if(r.ok)location.replace(BASE+'/line/${l.id}?toast='+(r.on?'on':'off'))})}`;
  return renderPage({ title: l.name, css: CSS, body, ctx, script });
}

function ticketsPage(state: TransitState, ctx: AppContext): AppResponse {
  const mine = state.purchases.length
    ? [...state.purchases]
        .reverse()
        .map((p) => `<div class="row"><div class="info"><div class="t">${esc(p.fare)}</div><div class="s">Bought Jun 2, 9:41 AM &middot; starts when you first tap in</div></div><span class="badge good">Ready</span></div>`)
        .join('')
    : '<div class="row"><div class="info"><div class="s">No tickets yet. Tickets you buy show up here.</div></div></div>';
  const fares = state.fares
    .map(
      (f) =>
        `<a class="row" href="${ctx.base}/fare/${f.id}"><div class="info"><div class="t">${esc(f.name)}</div><div class="s">${esc(f.covers)}</div></div><span class="price">${money(f.cents)}</span></a>`,
    )
    .join('');
  const body = `${appbar('Tickets')}${tabs(ctx, 'tickets')}<div class="section">My tickets</div>${mine}
<div class="section">Buy a ticket</div>${fares}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Tickets', css: CSS, body, ctx, root: true });
}

function farePage(state: TransitState, ctx: AppContext, f: Fare, toastKind: string): AppResponse {
  const owned = state.purchases.filter((p) => p.fare === f.name).length;
  const body = `${appbar('Ticket', { back: true })}
<div class="card"><h2>${esc(f.name)}</h2><div class="d">${esc(f.covers)}</div></div>
<div class="kv"><span class="k">Price</span><span class="v">${money(f.cents)}</span></div>
<div class="kv"><span class="k">Valid for</span><span class="v">${esc(f.valid)} from first tap</span></div>
<div class="kv"><span class="k">Pay with</span><span class="v">${CARD_ON_FILE}</span></div>
${owned ? `<div class="status" style="margin-top:12px">You have ${owned === 1 ? 'this ticket' : `${owned} of these tickets`} in My tickets</div>` : ''}
<button class="primary" onclick="show('buy')">${owned ? 'Buy another' : `Buy for ${money(f.cents)}`}</button>${menu(ctx)}
${confirmDialog('buy', 'Buy this ticket?', `${f.name} for ${money(f.cents)}, charged to ${CARD_ON_FILE}. It starts when you first tap in.`, 'Buy', 'buy()')}
${toastKind === 'bought' ? toast('Ticket bought') : ''}`;
  const script = `function buy(){api('buy',{id:${f.id}}).then(r=>{if(r.ok)location.replace(BASE+'/fare/${f.id}?toast=bought')})}`;
  return renderPage({ title: f.name, css: CSS, body, ctx, script });
}

/** Trips on the card before the session starts. */
const TRIPS: readonly (readonly [string, string, number])[] = [
  ['Jun 1, 6:12 PM', 'Route 12 · Downtown', 250],
  ['Jun 1, 8:03 AM', 'Red Line · Northgate', 250],
  ['May 31, 5:47 PM', 'Green Line · Harbor', 250],
  ['May 31, 7:58 AM', 'Red Line · Northgate', 250],
];

function cardPage(state: TransitState, ctx: AppContext, toastKind: string): AppResponse {
  const body = `${appbar('CityCard')}${tabs(ctx, 'card')}
<div class="citycard"><div class="nm">CityCard &bull;&bull;3390</div><div><div style="font-size:15px;opacity:.9">Balance</div><div class="bal">${money(state.balanceCents)}</div></div></div>
<div class="section">Auto-reload</div>
<button class="row" role="switch" aria-checked="${state.autoReload}" aria-label="Auto-reload" onclick="auto(this)"><div class="info"><div class="t">Auto-reload</div><div class="s">${
    state.autoReload ? `Adds ${esc(state.reloadAmount)} when your balance is under ${money(RELOAD_BELOW_CENTS)}` : `Top up from ${CARD_ON_FILE} when your balance runs low`
  }</div></div><span class="switch${state.autoReload ? ' on' : ''}"></span></button>
<div class="field"><label>Reload amount</label><button class="pick" onclick="show('amount')"><span id="amount-v">${esc(state.reloadAmount)}</span><span>&#9662;</span></button></div>
<div class="section">Recent trips</div>${TRIPS.map(
    ([when, what, c]) => `<div class="row"><div class="info"><div class="t">${esc(what)}</div><div class="s">${esc(when)}</div></div><span class="price">-${money(c)}</span></div>`,
  ).join('')}<div class="spacer"></div>${menu(ctx)}
${pickerDialog('amount', 'Reload amount', RELOAD_AMOUNTS, state.reloadAmount, 'pick')}
${toastKind === 'amount' ? toast('Reload amount updated') : toastKind === 'on' ? toast('Auto-reload is on') : toastKind === 'off' ? toast('Auto-reload is off') : ''}`;
  const script = `function pick(v){api('reload-amount',{amount:v}).then(r=>{if(r.ok)location.replace(BASE+'/card?toast=amount')})}
function auto(el){const on=el.getAttribute('aria-checked')!=='true';api('auto-reload',{on}).then(r=>{if(r.ok)location.replace(BASE+'/card?toast='+(r.on?'on':'off'))})}`;
  return renderPage({ title: 'CityCard', css: CSS, body, ctx, script, root: true });
}

function morePage(ctx: AppContext): AppResponse {
  const body = `${appbar('More')}${tabs(ctx, 'more')}
<div class="row"><div class="av" style="background:${ACCENT}">AK</div><div class="info"><div class="t">Alex Kim</div><div class="s">${esc(PROFILE_PHONE)}</div></div></div>
<div class="section">Help</div>
<a class="row" href="${ctx.base}/lost"><div class="info"><div class="t">Lost and found</div><div class="s">Report something you left on a bus or train</div></div><span class="muted">&rsaquo;</span></a>
<div class="row"><div class="info"><div class="t">Customer service</div><div class="s">Call 1-800-555-0142, 6 AM to 10 PM</div></div></div>
<div class="row"><div class="info"><div class="t">Fares and policies</div><div class="s">Reduced fares, transfers, refunds</div></div></div>
<div class="row"><div class="info"><div class="t">App version</div><div class="s">4.12.0</div></div></div>${menu(ctx)}`;
  return renderPage({ title: 'More', css: CSS, body, ctx, root: true });
}

function lostPage(ctx: AppContext): AppResponse {
  const pickField = (key: string, label: string, empty: string): string =>
    `<div class="field" id="f-${key}"><label>${esc(label)}</label><button class="pick empty-v" onclick="show('${key}s')"><span id="${key}-v">${esc(empty)}</span><span>&#9662;</span></button><div class="ferr" id="e-${key}"></div></div>`;
  const body = `${appbar('Report a lost item', { back: true, menu: false })}
<div class="intro">Tell us where you lost it and what it looks like. Items are kept for 30 days.</div>
${pickField('line', 'Line or route', 'Choose a line')}
${pickField('item', 'What did you lose?', 'Choose a type of item')}
<div class="field" id="f-description"><label for="description">Description</label><input id="description" type="text" placeholder="Color, brand, anything that helps" autocomplete="off"><div class="ferr" id="e-description"></div></div>
<div class="field" id="f-phone"><label for="phone">Phone number</label><input id="phone" type="tel" autocomplete="off" value="${esc(PROFILE_PHONE)}"><div class="ferr" id="e-phone"></div></div>
<button class="primary" onclick="send()">Send report</button><div class="spacer"></div>
${pickerDialog('lines', 'Line or route', LINE_NAMES, '', 'pickLine')}${pickerDialog('items', 'What did you lose?', LOST_ITEMS, '', 'pickItem')}`;
  const script = `const V={line:'',item:''};
function pickInto(key,v){V[key]=v;const s=document.getElementById(key+'-v');s.textContent=v;s.parentElement.classList.remove('empty-v');
 for(const o of document.querySelectorAll('#'+key+'s .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(key+'s')}
function pickLine(v){pickInto('line',v)}
function pickItem(v){pickInto('item',v)}
function send(){const v=id=>document.getElementById(id).value;
 for(const k of ['line','item','description','phone']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('lost',{line:V.line,item:V.item,description:v('description'),phone:v('phone')}).then(r=>{if(r.ok){location.replace(BASE+'/lost/sent');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Report a lost item', css: CSS, body, ctx, script });
}

function lostSentPage(state: TransitState, ctx: AppContext): AppResponse {
  const r = state.reports[state.reports.length - 1];
  if (!r) return { status: 303, redirect: `${ctx.base}/lost` };
  const body = `${appbar('Report sent', { menu: false })}
<div class="card"><h2>We got your report</h2><div class="d">Case number ${esc(r.caseNumber)}</div><div class="d">We'll text ${esc(r.phone)} if we find it.</div></div>
<div class="kv"><span class="k">Line or route</span><span class="v">${esc(r.line)}</span></div>
<div class="kv"><span class="k">Item</span><span class="v">${esc(r.item)}</span></div>
<div class="kv"><span class="k">Description</span><span class="v">${esc(r.description)}</span></div>
<a class="primary" href="${ctx.base}/more">Done</a>`;
  return renderPage({ title: 'Report sent', css: CSS, body, ctx });
}

function handleApi(state: TransitState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  switch (action) {
    case 'alerts': {
      const l = state.lines.find((x) => x.id === Number(b.id));
      if (!l) return json({ ok: false, error: 'unknown line' }, 404);
      if (typeof b.on !== 'boolean') return json({ ok: false, error: 'on must be true or false' }, 400);
      l.alerts = b.on;
      return json({ ok: true, on: l.alerts });
    }
    case 'buy': {
      const f = state.fares.find((x) => x.id === Number(b.id));
      if (!f) return json({ ok: false, error: 'unknown fare' }, 404);
      state.purchases.push({ fare: f.name, cents: f.cents, seq: state.seq });
      return json({ ok: true });
    }
    case 'auto-reload': {
      if (typeof b.on !== 'boolean') return json({ ok: false, error: 'on must be true or false' }, 400);
      state.autoReload = b.on;
      return json({ ok: true, on: state.autoReload });
    }
    case 'reload-amount': {
      const amount = str(b.amount);
      if (!RELOAD_AMOUNTS.includes(amount)) return json({ ok: false, error: 'unknown reload amount' }, 400);
      state.reloadAmount = amount;
      return json({ ok: true });
    }
    case 'lost': {
      const line = str(b.line);
      const item = str(b.item);
      const description = str(b.description).trim().replace(/\s+/g, ' ');
      const phoneText = str(b.phone).trim();
      const errors: Record<string, string> = {};
      if (!LINE_NAMES.includes(line)) errors.line = 'Choose the line or route';
      if (!LOST_ITEMS.includes(item)) errors.item = 'Choose what you lost';
      if (!description) errors.description = 'Describe the item';
      else if (description.length < DESCRIPTION_MIN) errors.description = 'Add a few more words so we can recognize it';
      else if (description.length > DESCRIPTION_MAX) errors.description = `Keep the description under ${DESCRIPTION_MAX} characters`;
      if (!phoneText) errors.phone = 'Enter a phone number so we can reach you';
      else if (!phoneDigits(phoneText)) errors.phone = 'Enter a 10-digit phone number';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      state.reports.push({ line, item, description, phone: phoneText, caseNumber: `LF-${20400 + state.seq * 7 + state.reports.length}` });
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleTransit(state: TransitState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return linesPage(state, ctx);
  if (head === 'tickets') return ticketsPage(state, ctx);
  if (head === 'card') return cardPage(state, ctx, t);
  if (head === 'more') return morePage(ctx);
  if (head === 'lost' && arg === undefined) return lostPage(ctx);
  if (head === 'lost' && arg === 'sent') return lostSentPage(state, ctx);
  const id = Number(arg);
  const line = head === 'line' ? state.lines.find((x) => x.id === id) : undefined;
  if (line) return linePage(state, ctx, line, t);
  const fare = head === 'fare' ? state.fares.find((x) => x.id === id) : undefined;
  if (fare) return farePage(state, ctx, fare, t);
  return notFound(CSS);
}
