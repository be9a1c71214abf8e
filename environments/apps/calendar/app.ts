import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { actionSheet, appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, renderPage, str } from '../mobile-kit.js';
import { esc } from '../shared.js';
import { MONTH_NAMES, MONTH_RANGE, TIMES, TODAY, YEAR, WEEKDAYS, daysIn, isoDate, longDate, weekdayOf } from './catalog.js';
import type { CalEvent, CalendarState } from './state.js';

const ACCENT = '#5f3dc4';
const CSS =
  kitCss(ACCENT, '#f3f0ff') +
  `
.sync{font-size:16px;font-weight:bold;color:rgba(255,255,255,.55);padding:0 10px;height:44px}
.mhead{display:flex;align-items:center;justify-content:space-between;background:#fff;padding:8px 8px}
.mhead h2{margin:0;font-size:21px}
.mhead button,.mhead .off{width:48px;height:48px;border-radius:24px;font-size:30px;font-weight:bold;color:${ACCENT};line-height:44px}
.mhead .off{display:inline-block}
.grid{display:grid;grid-template-columns:repeat(7,1fr);background:#fff;padding:0 6px 10px;border-bottom:1px solid #e5e7eb}
.grid .wd{text-align:center;font-size:15px;color:#5a616b;padding:6px 0;font-weight:bold}
.grid .d{width:48px;margin:0 auto;height:48px;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:17px;border-radius:24px;color:#1f2328}
.grid .d.today{background:${ACCENT};color:#fff;font-weight:bold}
.grid .d .dot{width:6px;height:6px;border-radius:3px;background:${ACCENT};margin-top:3px}
.grid .d.today .dot{background:#fff}
.ev{display:flex;gap:14px;align-items:center;padding:12px 16px;background:#fff;border-bottom:1px solid #eceef1;min-height:66px}
.ev .badge{width:52px;flex:none;text-align:center;border-radius:10px;background:#f3f0ff;color:${ACCENT};padding:4px 0}
.ev .badge b{display:block;font-size:20px}
.ev .badge span{font-size:14px;font-weight:bold}
.ev .name{font-size:18px;font-weight:bold}
.dgrid{display:grid;grid-template-columns:repeat(7,1fr);gap:4px}
.dgrid .wd{text-align:center;font-size:14px;color:#5a616b;font-weight:bold}
.dgrid button{height:42px;border-radius:21px;font-size:16px;font-weight:bold;color:#2b2f36}
.dgrid button.sel{background:${ACCENT};color:#fff}
.tgrid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px}
.tgrid .chip{padding:0;min-height:42px}
.detail{background:#fff;padding:20px 16px;border-bottom:1px solid #e5e7eb}
.detail h2{margin:0 0 14px;font-size:25px}
.detail .kv{font-size:18px;margin:8px 0}
.detail .k{color:#5a616b;font-size:15px;display:block}
`;

const monthKey = (m: number): string => `${YEAR}-${String(m).padStart(2, '0')}`;
const inRange = (m: number): boolean => (MONTH_RANGE as readonly number[]).includes(m);
const parseMonth = (s: string | null): number => {
  const m = /^2025-(\d\d)$/.exec(s ?? '');
  const n = m ? Number(m[1]) : 6;
  return inRange(n) ? n : 6;
};
const byWhen = (a: CalEvent, b: CalEvent): number => (a.date + a.time).localeCompare(b.date + b.time);
const WD = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function page(ctx: AppContext, title: string, body: string, script = '', root = false): AppResponse {
  const m = overflowMenu([
    { label: 'New event', href: `${ctx.base}/new` },
    { label: 'Go to today', href: `${ctx.base}/` },
  ]);
  return renderPage({ title, css: CSS, ctx, body: body + m, script, root });
}

function monthPage(state: CalendarState, ctx: AppContext, month: number): AppResponse {
  state.monthViews.push(monthKey(month));
  const first = weekdayOf(isoDate(month, 1));
  const events = state.events.filter((e) => e.date.startsWith(monthKey(month))).sort(byWhen);
  const withEvents = new Set(events.map((e) => e.date));
  const cells = [
    ...WD.map((w) => `<div class="wd">${w}</div>`),
    ...Array.from({ length: first }, () => '<div></div>'),
    ...Array.from({ length: daysIn(month) }, (_, i) => {
      const iso = isoDate(month, i + 1);
      return `<a class="d${iso === TODAY ? ' today' : ''}" href="${ctx.base}/new?date=${iso}" aria-label="${esc(longDate(iso))}">${i + 1}${withEvents.has(iso) ? '<span class="dot"></span>' : ''}</a>`;
    }),
  ].join('');
  const idx = (MONTH_RANGE as readonly number[]).indexOf(month);
  const prev = MONTH_RANGE[idx - 1];
  const next = MONTH_RANGE[idx + 1];
  const nav = (m: number | undefined, label: string, glyph: string): string =>
    m === undefined ? `<span class="off" aria-hidden="true"></span>` : `<button aria-label="${label}" onclick="location.href=BASE+'/?m=${monthKey(m)}'">${glyph}</button>`;
  const rows = events
    .map((e) => {
      const d = Number(e.date.slice(8));
      return `<a class="ev" href="${ctx.base}/e/${e.id}" data-event="${e.id}" data-name="${esc(e.title)}"><div class="badge"><span>${WD[weekdayOf(e.date)] ?? ''}</span><b>${d}</b></div>
<div class="info"><div class="name">${esc(e.title)}</div><div class="muted">${e.time}</div></div></a>`;
    })
    .join('');
  const name = MONTH_NAMES[month - 1] ?? '';
  // The Sync button is a trap: it looks like an action but silently does nothing.
  const body = `${appbar('Calendar', { back: false, right: `<button class="sync" aria-label="Sync">Sync</button>` })}
<div class="mhead">${nav(prev, 'Previous month', '&lsaquo;')}<h2>${name} ${YEAR}</h2>${nav(next, 'Next month', '&rsaquo;')}</div>
<div class="grid">${cells}</div>
<div class="section">Events in ${name}</div>${rows || `<div class="empty">No events in ${name}</div>`}<div class="spacer"></div>
<a class="fab" href="${ctx.base}/new"><span class="plus">+</span>New event</a>
${actionSheet('ctx', [{ label: 'Delete event', js: "document.getElementById('ctx').hidden=true;document.getElementById('del-text').textContent=ctxTarget.dataset.name+' will be removed.';openDlg('del')" }])}
${confirmDialog('del', { title: 'Delete this event?', text: '', confirm: 'Delete', destroy: true, confirmJs: "api('delete',{id:ctxTarget.dataset.event}).then(()=>location.replace(location.pathname+location.search+(location.search?'&':'?')+'toast=Event deleted'))" })}`;
  const script = `for(const r of document.querySelectorAll('[data-event]'))longPress(r,el=>openSheet('ctx',el,el.dataset.name));`;
  return page(ctx, 'Calendar', body, script, true);
}

function formPage(ctx: AppContext, date: string): AppResponse {
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8));
  const monthChips = MONTH_RANGE.map(
    (m) => `<button class="chip${m === month ? ' sel' : ''}" role="radio" aria-checked="${m === month}" aria-label="${MONTH_NAMES[m - 1] ?? ''}" data-month="${m}" onclick="setMonth(${m})">${MONTH_NAMES[m - 1]?.slice(0, 3) ?? ''}</button>`,
  ).join('');
  const times = TIMES.map((t) => `<button class="chip" role="radio" aria-checked="false" data-time="${t}" onclick="setTime('${t}')">${t}</button>`).join('');
  const body = `${appbar('New event', { back: true, right: `<button class="txt" onclick="save()">Save</button>` })}
<div class="field" id="f-title"><label for="title">Title</label><input id="title" type="text" placeholder="Add title" autocomplete="off"><div class="ferr" id="e-title"></div></div>
<div class="field"><label>Date: <span id="datelabel"></span></label><div class="chips" role="radiogroup" style="margin-bottom:10px">${monthChips}</div><div class="dgrid" id="days"></div></div>
<div class="field"><label>Time: <span id="timelabel">not set</span></label><div class="tgrid" role="radiogroup">${times}</div><div class="ferr" id="e-time"></div></div>
<button class="primary" onclick="save()">Save event</button><div class="spacer"></div>`;
  const script = `const YEAR=${YEAR};const MONTHS=${JSON.stringify(MONTH_NAMES)};const WDL=${JSON.stringify(WEEKDAYS)};
let month=${month},day=${day},time=null;
const pad=n=>String(n).padStart(2,'0');
function dim(m){return new Date(Date.UTC(YEAR,m,0)).getUTCDate()}
function wd(m,d){return (new Date(Date.UTC(YEAR,m-1,d)).getUTCDay()+6)%7}
function drawDays(){const g=document.getElementById('days');let h=['Mon','Tue','Wed','Thu','Fri','Sat','Sun'].map(w=>'<div class="wd">'+w+'</div>').join('');
 for(let i=0;i<wd(month,1);i++)h+='<div></div>';
 for(let d=1;d<=dim(month);d++)h+='<button class="'+(d===day?'sel':'')+'" role="radio" aria-checked="'+(d===day)+'" aria-label="'+MONTHS[month-1]+' '+d+'" data-day="'+d+'" onclick="setDay('+d+')">'+d+'</button>';
 g.innerHTML=h;document.getElementById('datelabel').textContent=WDL[wd(month,day)]+', '+MONTHS[month-1]+' '+day}
function setMonth(m){month=m;day=Math.min(day,dim(m));for(const c of document.querySelectorAll('[data-month]')){const on=Number(c.dataset.month)===m;c.classList.toggle('sel',on);c.setAttribute('aria-checked',String(on))}drawDays()}
function setDay(d){day=d;drawDays()}
function setTime(t){time=t;document.getElementById('e-time').textContent='';document.getElementById('timelabel').textContent=t;for(const c of document.querySelectorAll('[data-time]')){const on=c.dataset.time===t;c.classList.toggle('sel',on);c.setAttribute('aria-checked',String(on))}}
drawDays();
const title=document.getElementById('title');
title.addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();title.blur()}});
function save(){document.getElementById('e-title').textContent='';document.getElementById('f-title').classList.remove('bad');
 api('create',{title:title.value,date:YEAR+'-'+pad(month)+'-'+pad(day),time}).then(s=>{
  if(s.ok){location.replace(BASE+'/?m='+YEAR+'-'+pad(month)+'&toast=Event saved');return}
  if(s.field==='title')document.getElementById('f-title').classList.add('bad');
  document.getElementById('e-'+s.field).textContent=s.error})}`;
  return page(ctx, 'New event', body, script);
}

function detailPage(ctx: AppContext, e: CalEvent): AppResponse {
  const body = `${appbar('Event', { back: true })}
<div class="detail"><h2>${esc(e.title)}</h2><div class="kv"><span class="k">Date</span>${esc(longDate(e.date))}</div><div class="kv"><span class="k">Time</span>${e.time}</div>
<div class="kv"><span class="k">Calendar</span>Personal</div></div>
<button class="secondary danger" onclick="openDlg('del')">Delete event</button>
${confirmDialog('del', { title: 'Delete this event?', text: `${e.title} will be removed.`, confirm: 'Delete', destroy: true, confirmJs: `api('delete',{id:'${e.id}'}).then(()=>location.replace(BASE+'/?m=${e.date.slice(0, 7)}&toast=Event deleted'))` })}`;
  return page(ctx, e.title, body);
}

function validDate(iso: string): boolean {
  const m = /^2025-(\d\d)-(\d\d)$/.exec(iso);
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  return inRange(month) && day >= 1 && day <= daysIn(month);
}

function handleApi(state: CalendarState, action: string, body: Record<string, unknown>): AppResponse {
  switch (action) {
    case 'create': {
      const title = str(body.title).trim().slice(0, 80);
      const date = str(body.date);
      const time = str(body.time);
      if (!title) return json({ ok: false, field: 'title', error: 'Please enter a title' });
      if (!validDate(date)) return json({ ok: false, field: 'title', error: 'Invalid date' });
      if (!TIMES.includes(time)) return json({ ok: false, field: 'time', error: 'Please choose a time' });
      state.seq += 1;
      state.events.push({ id: `e${state.nextId++}`, title, date, time, created: true });
      return json({ ok: true });
    }
    case 'delete': {
      const e = state.events.find((x) => x.id === str(body.id));
      if (!e) return json({ error: 'no such event' }, 404);
      state.seq += 1;
      state.events = state.events.filter((x) => x !== e);
      state.deleted.push({ id: e.id, title: e.title, seq: state.seq });
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleCalendar(state: CalendarState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') {
    if (parts[0] === 'api' && parts[1]) return handleApi(state, parts[1], bodyOf(req.body));
    return json({ error: 'not found' }, 404);
  }
  const [head, arg] = parts;
  if (head === undefined) return monthPage(state, ctx, parseMonth(req.query.get('m')));
  if (head === 'new') {
    const q = req.query.get('date') ?? '';
    return formPage(ctx, validDate(q) ? q : TODAY);
  }
  if (head === 'e' && arg) {
    const e = state.events.find((x) => x.id === arg);
    return e ? detailPage(ctx, e) : notFound(CSS, 'Event not found');
  }
  return notFound(CSS);
}
