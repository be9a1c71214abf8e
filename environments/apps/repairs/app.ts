import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, tabBar, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  addressOf,
  BOOKABLE_DAYS,
  bookingErrors,
  BUDGETS,
  CANCEL_REASONS,
  canChange,
  cardName,
  cardOf,
  dayLabel,
  dayOfMonth,
  DETAILS_MAX,
  dueCents,
  emptyBooking,
  emptyQuote,
  freeWindows,
  isUpcoming,
  money,
  NOTES_MAX,
  paymentDue,
  PROJECT_TYPES,
  proOf,
  quoteErrors,
  shortDay,
  SIZES,
  takenWindows,
  TIMINGS,
  TIP_OPTIONS,
  tipFor,
  TRADES,
  TRADE_NAMES,
  USER,
  USER_EMAIL,
  USER_PHONE,
  WINDOW_NAMES,
  works,
  type Pro,
  type QuoteRequest,
  type RepairsState,
  type Visit,
} from './state.js';

const ACCENT = '#0f6e56';
const SOFT = '#d3f2e8';
const WARM = '#e8590c';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f6f4}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#fff;border-top:1px solid #d8e2dd}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:3px;font-size:13px;font-weight:bold;color:#5b6761}
.bnav a .g{font-size:21px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:104px}
.where{padding:12px 16px 0;font-size:15px;color:#4d5a54}
.where b{color:#1d2b25}
.ask{padding:6px 16px 2px;font-size:26px;font-weight:bold;color:#10281f}
.find{display:flex;margin:10px 12px 6px;border:2px solid #b9cbc2;border-radius:14px;background:#fff;overflow:hidden}
.find input{flex:1;height:52px;border:none;padding:0 14px;font-size:17px;outline:none;background:#fff}
.find button{padding:0 18px;font-size:16px;font-weight:bold;color:#fff;background:${ACCENT}}
.trades{display:grid;grid-template-columns:repeat(3,1fr);gap:10px;padding:4px 12px 8px}
.trade{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:6px;height:92px;background:#fff;border-radius:14px;border:1px solid #d8e2dd;font-size:15px;font-weight:bold;color:#1d2b25;text-align:center;padding:0 4px}
.trade .e{font-size:28px;line-height:30px}
.tile{display:block;margin:10px 12px;padding:16px;background:#fff;border-radius:14px;border-left:6px solid ${ACCENT};box-shadow:0 1px 3px rgba(0,0,0,.08)}
.tile .k{font-size:13px;font-weight:bold;letter-spacing:.5px;text-transform:uppercase;color:${ACCENT}}
.tile .h{font-size:19px;font-weight:bold;margin-top:4px;color:#10281f}
.tile .b{font-size:15px;color:#4d5a54;margin-top:3px}
.tile.due{border-left-color:${WARM}}
.tile.due .k{color:${WARM}}
.tile.plan{background:#10281f;border-left-color:#ffd43b}
.tile.plan .k{color:#ffd43b}.tile.plan .h{color:#fff}.tile.plan .b{color:#cfe0d8}
.banner{margin:12px;padding:14px 16px;border-radius:12px;font-size:16px}
.banner h2{margin:0 0 4px;font-size:20px}
.banner.good{background:#d3f9d8;color:#1b4d2a}
.banner.info{background:#e7f5ff;color:#1c4466}
.banner.stop{background:#fff0f0;color:#7a1f1f}
.banner.warn{background:#fff4e6;color:#7a3b0b}
.sub{padding:10px 16px 6px;font-size:15px;color:#4d5a54}
.pro{display:flex;gap:14px;align-items:center;min-height:96px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ebe7}
.pro .info{flex:1;min-width:0}
.pro .n{font-size:18px;font-weight:bold;color:#10281f}
.pro .s{font-size:15px;color:#4d5a54;margin-top:2px}
.pro .stars{color:#c77d00;font-weight:bold}
.pro .next{font-size:14px;font-weight:bold;color:${ACCENT};margin-top:3px}
.pro .next.no{color:#a61e1e}
.pro .chev{font-size:24px;color:#9aa9a2}
.mono{width:52px;height:52px;border-radius:26px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.head{display:flex;gap:14px;align-items:center;padding:16px;background:#fff}
.head h2{margin:0;font-size:22px;color:#10281f}
.head .s{font-size:15px;color:#4d5a54;margin-top:3px}
.badges{display:flex;flex-wrap:wrap;gap:6px;padding:0 16px 14px;background:#fff}
.pill{display:inline-block;padding:3px 10px;border-radius:12px;font-size:13px;font-weight:bold;background:#e6efe9;color:#2c4a3d}
.pill.due{background:#ffe8cc;color:#a8400a}
.pill.ok{background:#d3f9d8;color:#2b8a3e}
.pill.grey{background:#eceff1;color:#6b7780}
.pill.today{background:#fff3bf;color:#8a5a00}
.facts{background:#fff;padding:4px 16px 12px;font-size:15px;color:#3b4842}
.facts div{padding:4px 0}
.svc{display:flex;justify-content:space-between;gap:12px;padding:13px 16px;background:#fff;border-bottom:1px solid #e3ebe7}
.svc .n{font-size:17px;font-weight:bold}
.svc .s{font-size:14px;color:#4d5a54;margin-top:2px}
.svc .p{font-size:16px;font-weight:bold;color:#10281f;white-space:nowrap}
.rev{padding:12px 16px;background:#fff;border-bottom:1px solid #e3ebe7}
.rev .a{font-size:15px;font-weight:bold}
.rev .st{color:#c77d00}
.rev .t{font-size:15px;color:#3b4842;margin-top:4px}
.para{padding:12px 16px;background:#fff;font-size:15px;color:#3b4842}
.steps{padding:12px 16px 0;font-size:14px;font-weight:bold;color:#5b6761;text-transform:uppercase;letter-spacing:.4px}
.q{padding:6px 16px 8px;font-size:22px;font-weight:bold;color:#10281f}
.choice{display:flex;align-items:center;gap:14px;width:100%;min-height:64px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe7;text-align:left}
.choice .info{flex:1}
.choice .t{font-size:17px;font-weight:bold}
.choice .s{font-size:14px;color:#4d5a54;margin-top:2px}
.choice .box{width:24px;height:24px;border-radius:12px;border:2px solid #8a9892;flex:none}
.choice.sel{background:#f0faf6}
.choice.sel .box{border:8px solid ${ACCENT}}
.choice.dim{opacity:.5}
.cal{margin:8px 12px;padding:10px;background:#fff;border-radius:14px;border:1px solid #d8e2dd}
.cal .m{font-size:16px;font-weight:bold;padding:2px 4px 8px;color:#10281f}
.cal .g{display:grid;grid-template-columns:repeat(7,1fr);gap:4px}
.cal .wd{text-align:center;font-size:13px;font-weight:bold;color:#6b7780;padding:2px 0}
.cal .d{height:46px;border-radius:10px;font-size:17px;font-weight:bold;color:#10281f;background:#f3f6f4;position:relative}
.cal .d.off{background:none;color:#b7c0bc;text-decoration:line-through}
.cal .d.on{background:${ACCENT};color:#fff}
.cal .d.cur:after{content:'';position:absolute;bottom:5px;left:50%;margin-left:-3px;width:6px;height:6px;border-radius:3px;background:${WARM}}
.cal .legend{font-size:13px;color:#6b7780;padding:8px 4px 0}
.wins{background:#fff}
.win{display:flex;justify-content:space-between;align-items:center;width:100%;height:56px;padding:0 16px;border-bottom:1px solid #e3ebe7;font-size:17px;font-weight:bold;text-align:left}
.win .st{font-size:14px;font-weight:normal;color:#4d5a54}
.win.sel{background:${SOFT};color:#0b4a3a}
.win.full{color:#a9b3af}
.win.full .st{color:#a9b3af}
.kv{display:flex;justify-content:space-between;gap:16px;padding:13px 16px;background:#fff;border-bottom:1px solid #e3ebe7;font-size:16px}
.kv .k{color:#4d5a54;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:18px}
.line{display:block;margin:12px;height:52px;border-radius:12px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.line.red{border-color:#c92a2a;color:#c92a2a}
.primary{border-radius:12px}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #cfd4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.field textarea{width:100%;height:110px;border:2px solid #cfd4da;border-radius:10px;padding:10px 14px;font:inherit;font-size:17px;outline:none;resize:none}
.field.bad .pick,.field.bad textarea{border-color:#c92a2a}
.field .choice{padding:10px 4px;min-height:52px}
.field .chips .chip{display:flex;flex-direction:column;justify-content:center;min-height:56px}
.field .chips .chip small{font-weight:normal;font-size:12px}
.tips{display:flex;gap:6px;padding:8px 12px;background:#fff}
.tips button{flex:1;min-height:58px;border:2px solid #cfd4da;border-radius:12px;font-size:16px;font-weight:bold;background:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center}
.tips button small{font-size:12px;font-weight:normal;color:#4d5a54}
.tips button.sel{border-color:${ACCENT};background:${SOFT};color:#0b4a3a}
.dialog .choice{padding:10px 2px;min-height:50px;border-bottom:1px solid #f1f3f5}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
.dialog input{width:100%;height:50px;border:2px solid #cfd4da;border-radius:10px;padding:0 14px;font-size:18px;outline:none}
.tabs{display:flex;background:#fff;border-bottom:1px solid #d8e2dd}
.tabs a{flex:1;text-align:center;padding:14px 0 12px;font-size:16px;font-weight:bold;color:#5b6761;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.dayhdr{padding:14px 16px 6px;font-size:14px;font-weight:bold;color:#5b6761;text-transform:uppercase;letter-spacing:.4px}
.vrow{display:flex;gap:14px;align-items:center;min-height:84px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe7}
.vrow .info{flex:1;min-width:0}
.vrow .n{font-size:17px;font-weight:bold;color:#10281f}
.vrow .s{font-size:15px;color:#4d5a54;margin-top:2px}
.vrow .chev{font-size:24px;color:#9aa9a2}
.vrow.gone .n{color:#8a9892}
.req{display:block;padding:14px 16px;background:#fff;border-bottom:1px solid #e3ebe7}
.req .n{font-size:18px;font-weight:bold;color:#10281f}
.req .s{font-size:15px;color:#4d5a54;margin-top:3px}
.row .t{font-size:17px}
.ptiles{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.ptile{min-height:52px;padding:6px 10px;border:2px solid #cfd4da;border-radius:12px;font-size:16px;font-weight:bold;background:#fff;text-align:left}
.ptile.sel{border-color:${ACCENT};background:${SOFT};color:#0b4a3a}
.field .choice.slim{min-height:48px;padding:6px 4px}
`;

type Tab = 'home' | 'visits' | 'projects' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'home', label: 'Explore', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'visits', label: 'Visits', glyph: '&#128197;', href: `${ctx.base}/visits` },
      { id: 'projects', label: 'Projects', glyph: '&#128203;', href: `${ctx.base}/projects` },
      { id: 'account', label: 'Account', glyph: '&#128100;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Payment methods', `${ctx.base}/account`],
    ['Past visits', `${ctx.base}/visits/past`],
    ['Help', `${ctx.base}/account`],
  ]);

const COLORS = ['#0f6e56', '#1864ab', '#c2255c', '#e8590c', '#5f3dc4', '#2b8a3e', '#0b7285', '#a61e4d', '#5c940d', '#364fc7'];
const colorOf = (name: string): string => {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length] ?? ACCENT;
};
const initialsOf = (name: string): string =>
  name
    .replace(/['.]/g, '')
    .split(/[\s&]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
const mono = (name: string, size = 52): string =>
  `<div class="mono" style="background:${colorOf(name)};width:${size}px;height:${size}px;border-radius:${size / 2}px">${esc(initialsOf(name))}</div>`;
const first = (name: string): string => name.split(' ')[0] ?? name;
const slug = (trade: string): string => trade.toLowerCase().replace(/&/g, 'and').replace(/[^a-z]+/g, '-');
const stars = (n: number): string => '&#9733;'.repeat(n) + '&#9734;'.repeat(5 - n);
/** "Today", "Tomorrow" or "Thursday, June 5". */
const dayName = (d: number): string => (d === 0 ? 'Today' : d === 1 ? 'Tomorrow' : dayLabel(d));
const proName = (st: RepairsState, v: Visit): string => proOf(st, v.proId)?.name ?? '';

function proRow(ctx: AppContext, p: Pro): string {
  const open = BOOKABLE_DAYS.find((d) => works(p, d) && freeWindows(p, d).length > 0);
  const next = p.accepting && open !== undefined ? `<div class="next">Next opening: ${esc(shortDay(open))}</div>` : `<div class="next no">Not taking new bookings</div>`;
  return `<a class="pro" href="${ctx.base}/p/${p.id}" data-pro="${esc(p.name)}">${mono(p.name)}<div class="info"><div class="n">${esc(p.name)}</div><div class="s"><span class="stars">&#9733; ${p.rating.toFixed(1)}</span> (${p.ratings}) · ${p.years} yr${
    p.years === 1 ? '' : 's'
  } in business</div><div class="s">${esc(p.fee)}</div>${next}</div><span class="chev">&rsaquo;</span></a>`;
}

function homePage(st: RepairsState, ctx: AppContext): AppResponse {
  const upcoming = st.visits.filter(isUpcoming).sort((a, b) => a.day - b.day || a.id - b.id);
  const next = upcoming[0];
  const due = st.visits.filter(paymentDue);
  const trades = TRADES.map(([t, e]) => `<a class="trade" href="${ctx.base}/trade/${slug(t)}"><span class="e" aria-hidden="true">${e}</span>${esc(t)}</a>`).join('');
  const top = st.order
    .map((id) => proOf(st, id))
    .filter((p): p is Pro => !!p && p.accepting && p.rating >= 4.8)
    .slice(0, 4);
  const body = `${appbar('Mendwick')}
<div class="where">Service address: <b>Home · 418 Oakridge Ave</b></div>
<div class="ask">What needs fixing?</div>
<form class="find" method="get" action="${ctx.base}/search"><input id="q" name="q" type="search" autocomplete="off" placeholder="Search a repair or a pro"><button type="submit">Search</button></form>
<div class="section">Browse by trade</div>
<div class="trades">${trades}</div>
${
  next
    ? `<a class="tile" href="${ctx.base}/v/${next.id}"><div class="k">Next visit</div><div class="h">${esc(proName(st, next))}</div><div class="b">${esc(dayName(next.day))}, ${esc(next.window)} · ${esc(next.service)}</div></a>`
    : ''
}
${
  due.length
    ? `<a class="tile due" href="${ctx.base}/visits/past"><div class="k">Payment due</div><div class="h">${due.length} invoice${due.length === 1 ? '' : 's'} waiting</div><div class="b">${esc(due.map((v) => proName(st, v)).join(', '))}</div></a>`
    : ''
}
<a class="tile plan" href="${ctx.base}/projects/new"><div class="k">Bigger job?</div><div class="h">Get quotes for a project</div><div class="b">Describe it once and hear back from up to 4 local pros.</div></a>
<div class="section">Top rated near you</div>
${top.map((p) => proRow(ctx, p)).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Mendwick', css: CSS, body, ctx, root: true });
}

function prosPage(ctx: AppContext, title: string, pros: Pro[], note: string): AppResponse {
  const body = `${appbar(title, { back: true })}
<div class="sub">${esc(note)} · Recommended first</div>
${pros.map((p) => proRow(ctx, p)).join('') || '<div class="empty">No pros match. Try a trade like “plumbing” or a repair like “faucet”.</div>'}
<div class="sub">Every pro on Mendwick is licensed where required and background checked.</div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title, css: CSS, body, ctx });
}

function proPage(ctx: AppContext, p: Pro): AppResponse {
  const services = p.services
    .map((s) => `<div class="svc"><div><div class="n">${esc(s.name)}</div><div class="s">${esc(s.takes)}</div></div><div class="p">${esc(s.price)}</div></div>`)
    .join('');
  const reviews = p.reviews
    .map((r) => `<div class="rev"><div class="a">${esc(r.author)} <span class="st">${stars(r.stars)}</span> <span class="muted">· ${esc(r.when)}</span></div><div class="t">${esc(r.text)}</div></div>`)
    .join('');
  const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].filter((_, i) => p.weekdays.includes(i));
  const action = p.accepting
    ? `<a class="primary" id="book" href="${ctx.base}/p/${p.id}/book">Book a visit</a>`
    : `<div class="banner warn"><h2>Not taking new bookings</h2>${esc(first(p.owner))}'s calendar is full for now. Call ${esc(p.phone)} to join the waitlist.</div>`;
  const body = `${appbar('Pro profile', { back: true })}
<div class="head">${mono(p.name, 64)}<div><h2>${esc(p.name)}</h2><div class="s">${esc(p.owner)}, owner · ${esc(p.trade)}</div><div class="s"><span style="color:#c77d00;font-weight:bold">&#9733; ${p.rating.toFixed(1)}</span> · ${p.ratings} ratings</div></div></div>
<div class="badges"><span class="pill">Licensed &amp; insured</span><span class="pill">Background checked</span><span class="pill">${p.years} yr${p.years === 1 ? '' : 's'} in business</span></div>
<div class="facts"><div><b>Cost to come out:</b> ${esc(p.fee)}</div><div><b>Works:</b> ${esc(days.join(', '))}</div><div><b>Serves:</b> ${esc(p.serves)}</div></div>
${action}
<div class="section">Services and prices</div>${services}
<div class="sub">Final price depends on what the pro finds. You approve any extra work before it starts.</div>
<div class="section">What customers say</div>${reviews}
<div class="section">About</div><div class="para">${esc(p.about)}</div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: p.name, css: CSS, body, ctx });
}

function bookServicePage(st: RepairsState, ctx: AppContext, p: Pro): AppResponse {
  const cur = st.booking.proId === p.id ? st.booking.service : '';
  const rows = p.services
    .map(
      (s) =>
        `<button class="choice${s.name === cur ? ' sel' : ''}" role="radio" aria-checked="${s.name === cur}" data-v="${esc(s.name)}" onclick="pick(this)"><span class="box"></span><div class="info"><div class="t">${esc(s.name)}</div><div class="s">${esc(s.price)} · ${esc(
          s.takes,
        )}</div></div></button>`,
    )
    .join('');
  const body = `${appbar('Book a visit', { back: true, menu: false })}
<div class="steps">Step 1 of 3 · Service</div>
<div class="q">What do you need?</div>
<div class="sub" style="padding-top:0">${esc(p.name)} · ${esc(p.fee)}</div>
<div role="radiogroup" id="services">${rows}</div>
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Continue</button><div class="spacer"></div>`;
  const script = `let S=${JSON.stringify(cur)};
function pick(el){S=el.dataset.v;document.getElementById('err').textContent='';for(const b of document.querySelectorAll('#services .choice')){const on=b===el;b.classList.toggle('sel',on);b.setAttribute('aria-checked',String(on))}}
let busy=false;function next(){if(!S){document.getElementById('err').textContent='Pick what you need done';return}if(busy)return;busy=true;
 api('book-service',{pro:${p.id},service:S}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/p/${p.id}/book/time';return}document.getElementById('err').textContent=r.error||'Something went wrong'})}`;
  return renderPage({ title: 'Book a visit', css: CSS, body, ctx, script });
}

/**
 * A two-week calendar (this week and next, Monday first) with the pro's arrival windows for the picked day under it.
 * `current` marks a visit's present day and window (rescheduling).
 */
function timePicker(p: Pro, picked: { day: number; window: string }, current?: { day: number; window: string }): string {
  const heads = ['M', 'T', 'W', 'T', 'F', 'S', 'S'].map((d) => `<div class="wd">${d}</div>`).join('');
  const cells = Array.from({ length: 14 }, (_, d) => {
    const open = BOOKABLE_DAYS.includes(d) && works(p, d);
    const cls = `d${open ? '' : ' off'}${d === picked.day ? ' on' : ''}${current && d === current.day ? ' cur' : ''}`;
    return open
      ? `<button class="${cls}" data-day="${d}" aria-label="${esc(dayLabel(d))}" aria-pressed="${d === picked.day}" onclick="pickDay(this)">${dayOfMonth(d)}</button>`
      : `<span class="${cls}" style="display:flex;align-items:center;justify-content:center" aria-label="${esc(dayLabel(d))}, unavailable">${dayOfMonth(d)}</span>`;
  }).join('');
  const lists = BOOKABLE_DAYS.filter((d) => works(p, d))
    .map((d) => {
      const taken = takenWindows(p, d);
      const rows = WINDOW_NAMES.map((w) => {
        const mine = current && current.day === d && current.window === w;
        if (mine) return `<div class="win full" aria-disabled="true"><span>${esc(w)}</span><span class="st">Your current time</span></div>`;
        if (taken.includes(w)) return `<div class="win full" aria-disabled="true" aria-label="${esc(w)}, booked"><span>${esc(w)}</span><span class="st">Booked</span></div>`;
        const on = d === picked.day && w === picked.window;
        return `<button class="win${on ? ' sel' : ''}" data-day="${d}" data-w="${esc(w)}" aria-pressed="${on}" onclick="pickWin(this)"><span>${esc(w)}</span><span class="st">${on ? 'Selected' : 'Open'}</span></button>`;
      }).join('');
      return `<div class="wins" data-for="${d}"${d === picked.day ? '' : ' hidden'}>${rows}</div>`;
    })
    .join('');
  return `<div class="cal"><div class="m">June 2025</div><div class="g">${heads}${cells}</div><div class="legend">Crossed-out days: ${esc(first(p.owner))} doesn't work or it's too soon to book.</div></div>
<div class="section">Arrival windows</div><div class="sub" id="wday" style="padding-top:0">${picked.day >= 1 ? esc(dayLabel(picked.day)) : 'Pick a day to see the open windows'}</div>${lists}`;
}

const PICKER_JS = `const T={day:-1,window:''};
function pickDay(el){const d=Number(el.dataset.day);if(T.day!==d){T.window=''}T.day=d;for(const b of document.querySelectorAll('.cal .d[data-day]')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on))}
 for(const l of document.querySelectorAll('.wins')){l.hidden=Number(l.dataset.for)!==d}document.getElementById('wday').textContent=el.getAttribute('aria-label');paint();document.getElementById('err').textContent=''}
function pickWin(el){T.day=Number(el.dataset.day);T.window=el.dataset.w;paint();document.getElementById('err').textContent=''}
function paint(){for(const b of document.querySelectorAll('.win[data-w]')){const on=Number(b.dataset.day)===T.day&&b.dataset.w===T.window;b.classList.toggle('sel',on);b.setAttribute('aria-pressed',String(on));b.querySelector('.st').textContent=on?'Selected':'Open'}}
`;

function bookTimePage(st: RepairsState, ctx: AppContext, p: Pro): AppResponse {
  const d = st.booking;
  const picked = { day: d.day, window: d.window };
  const body = `${appbar('Book a visit', { back: true, menu: false })}
<div class="steps">Step 2 of 3 · Date and time</div>
<div class="q">When should ${esc(first(p.owner))} come?</div>
<div class="sub" style="padding-top:0">${esc(d.service)} · ${esc(p.name)}</div>
${timePicker(p, picked)}
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Continue</button><div class="spacer"></div>`;
  const script = `${PICKER_JS}T.day=${picked.day};T.window=${JSON.stringify(picked.window)};
let busy=false;function next(){const e=document.getElementById('err');if(T.day<1){e.textContent='Pick a day';return}if(!T.window){e.textContent='Pick an arrival window';return}if(busy)return;busy=true;
 api('book-time',{pro:${p.id},day:T.day,window:T.window}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/p/${p.id}/book/review';return}e.textContent=r.error||'That time is no longer open'})}`;
  return renderPage({ title: 'Book a visit', css: CSS, body, ctx, script });
}

function bookReviewPage(st: RepairsState, ctx: AppContext, p: Pro): AppResponse {
  const d = st.booking;
  const svc = p.services.find((s) => s.name === d.service);
  const addr = addressOf(st, d.addressId) ?? st.addresses[0]!;
  const lines = Object.fromEntries(st.addresses.map((a) => [a.label, a.line]));
  const ids = Object.fromEntries(st.addresses.map((a) => [a.label, a.id]));
  const body = `${appbar('Book a visit', { back: true, menu: false })}
<div class="steps">Step 3 of 3 · Confirm</div>
<div class="head">${mono(p.name, 52)}<div><h2 style="font-size:20px">${esc(p.name)}</h2><div class="s">${esc(p.owner)}</div></div></div>
<div class="kv"><span class="k">Service</span><span class="v" id="rv-service">${esc(d.service)}</span></div>
<div class="kv"><span class="k">Date</span><span class="v" id="rv-day">${esc(dayLabel(d.day))}</span></div>
<div class="kv"><span class="k">Arrival</span><span class="v" id="rv-window">${esc(d.window)}</span></div>
<div class="kv"><span class="k">Estimate</span><span class="v">${esc(svc?.price ?? '')}</span></div>
<div class="kv"><span class="k">To come out</span><span class="v">${esc(p.fee)}</span></div>
<div class="field" id="f-address"><label>Service address</label><button class="pick" id="addr-btn" onclick="show('addrs')"><span id="addr-v">${esc(addr.label)}</span><span>&#9662;</span></button><div class="muted" id="addr-line" style="margin-top:6px">${esc(addr.line)}</div></div>
<div class="field" id="f-notes"><label for="notes">Anything the pro should know? (optional)</label><textarea id="notes" maxlength="${NOTES_MAX + 40}" placeholder="Gate code, where to park, photos you can describe…">${esc(d.notes)}</textarea></div>
<div class="sub">You pay after the work is done. Free to cancel or move until 24 hours before the arrival window.</div>
<div class="error" id="err"></div>
<button class="primary" id="confirm" onclick="book()">Book visit</button><div class="spacer"></div>
${pickerDialog('addrs', 'Service address', st.addresses.map((a) => a.label), addr.label, 'pickAddr')}`;
  const script = `let A=${addr.id};const L=${JSON.stringify(lines)};const I=${JSON.stringify(ids)};
function pickAddr(v){A=I[v];document.getElementById('addr-v').textContent=v;document.getElementById('addr-line').textContent=L[v]||'';for(const o of document.querySelectorAll('#addrs .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('addrs')}
let busy=false;function book(){if(busy)return;busy=true;api('book',{pro:${p.id},address:A,notes:document.getElementById('notes').value}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/'+r.id+'?toast=booked');return}
 document.getElementById('err').textContent=r.error||'Could not book this visit'})}`;
  return renderPage({ title: 'Book a visit', css: CSS, body, ctx, script });
}

function visitRow(st: RepairsState, ctx: AppContext, v: Visit, past: boolean): string {
  const name = proName(st, v);
  let pill: string;
  if (v.status === 'canceled') pill = '<span class="pill grey">Canceled</span>';
  else if (!past) pill = v.day === 0 ? '<span class="pill today">Arriving today</span>' : '<span class="pill ok">Confirmed</span>';
  else if (paymentDue(v)) pill = `<span class="pill due">Payment due · ${esc(money(dueCents(v)))}</span>`;
  else pill = v.payment ? '<span class="pill grey">Paid</span>' : '<span class="pill grey">Completed</span>';
  const when = past ? `${shortDay(v.day)} · ${v.service}` : `${v.window} · ${v.service}`;
  return `<a class="vrow${v.status === 'canceled' ? ' gone' : ''}" href="${ctx.base}/v/${v.id}" data-pro="${esc(name)}" data-day="${esc(dayLabel(v.day))}">${mono(name, 46)}<div class="info"><div class="n">${esc(name)}</div><div class="s">${esc(when)}</div>${pill}</div><span class="chev">&rsaquo;</span></a>`;
}

function visitsPage(st: RepairsState, ctx: AppContext, past: boolean): AppResponse {
  const tabs = tabBar(
    [
      ['up', 'Upcoming', `${ctx.base}/visits`],
      ['past', 'Past', `${ctx.base}/visits/past`],
    ],
    past ? 'past' : 'up',
  );
  let list = '';
  if (past) {
    const done = st.visits.filter((v) => v.day < 0 || v.status !== 'scheduled').sort((a, b) => b.day - a.day || b.id - a.id);
    const due = done.filter(paymentDue);
    list = `<div class="sub">Earlier visits${due.length ? ` · ${due.length} waiting for payment` : ''}</div>${done.map((v) => visitRow(st, ctx, v, true)).join('') || '<div class="empty">No past visits</div>'}`;
  } else {
    const up = st.visits.filter(isUpcoming).sort((a, b) => a.day - b.day || a.id - b.id);
    const days = [...new Set(up.map((v) => v.day))];
    list = `<div class="sub">Coming up · ${up.length} visit${up.length === 1 ? '' : 's'}</div>${
      days.map((d) => `<div class="dayhdr">${esc(dayName(d))}</div>${up.filter((v) => v.day === d).map((v) => visitRow(st, ctx, v, false)).join('')}`).join('') ||
      `<div class="empty">Nothing booked. <a href="${ctx.base}/" style="color:${ACCENT};font-weight:bold">Find a pro</a></div>`
    }`;
  }
  const body = `${appbar('Visits')}${tabs}${list}<div class="spacer"></div>${bottomNav(ctx, 'visits')}${menu(ctx)}`;
  return renderPage({ title: 'Visits', css: CSS, body, ctx, root: true });
}

function visitPage(st: RepairsState, ctx: AppContext, v: Visit, t: string): AppResponse {
  const p = proOf(st, v.proId)!;
  const addr = addressOf(st, v.addressId);
  const svc = p.services.find((s) => s.name === v.service);
  const past = v.day < 0;
  let top = '';
  if (v.status === 'canceled' && v.seq > 0) top = `<div class="banner stop"><h2>Visit canceled</h2>We let ${esc(first(p.owner))} know. Reason: ${esc(v.cancelReason)}.</div>`;
  else if (v.movedFrom && v.status === 'scheduled')
    top = `<div class="banner good"><h2>Visit moved</h2>${esc(first(p.owner))} will now come ${esc(dayLabel(v.day))}, ${esc(v.window)} (was ${esc(shortDay(v.movedFrom.day))}, ${esc(v.movedFrom.window)}).</div>`;
  else if (!v.seeded && v.status === 'scheduled')
    top = `<div class="banner good"><h2>You're booked</h2>${esc(first(p.owner))} will arrive ${esc(dayLabel(v.day))} between ${esc(v.window)}. We sent a confirmation to ${esc(USER_EMAIL)}.</div>`;
  else if (v.payment && v.payment.seq > 0) top = `<div class="banner good"><h2>Payment sent</h2>${esc(money(v.payment.totalCents))} to ${esc(p.name)}. Your receipt is on its way to ${esc(USER_EMAIL)}.</div>`;
  const head = `<div class="head">${mono(p.name, 56)}<div><h2 style="font-size:20px">${esc(p.name)}</h2><div class="s">${esc(v.service)}</div></div></div>`;
  let main = '';
  let dialogs = '';
  let script = '';
  if (past) {
    const due = dueCents(v);
    const lines = v.invoice.map(([l, c]) => `<div class="kv"><span class="k">${esc(l)}</span><span class="v">${esc(money(c))}</span></div>`).join('');
    const pay = v.payment;
    const card = pay ? cardOf(st, pay.cardId) : undefined;
    main = `<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(v.day))}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(addr?.label ?? '')}</span></div>
${
  v.status === 'canceled'
    ? `<div class="banner stop"><h2>Canceled</h2>You canceled this visit. Reason: ${esc(v.cancelReason)}.</div>`
    : `<div class="section">Invoice</div>${lines}<div class="kv total"><span class="k">Total</span><span class="v">${esc(money(due))}</span></div>
${
  pay
    ? `<div class="kv"><span class="k">Tip</span><span class="v" id="paid-tip">${esc(pay.tip === 'No tip' ? 'No tip' : `${money(pay.tipCents)}${pay.tip === 'Custom' ? '' : ` (${pay.tip})`}`)}</span></div>
<div class="kv"><span class="k">Paid</span><span class="v" id="paid-total">${esc(money(pay.totalCents))}</span></div>
<div class="kv"><span class="k">Card</span><span class="v" id="paid-card">${esc(card ? cardName(card) : '')}</span></div>`
    : `<div class="banner warn" style="margin-bottom:0">${esc(first(p.owner))} sent this invoice after the visit. Please pay within 7 days.</div>
<a class="primary" id="pay-btn" href="${ctx.base}/v/${v.id}/pay">Pay ${esc(money(due))}</a>`
}`
}
<a class="line" href="${ctx.base}/p/${p.id}">Book ${esc(first(p.owner))} again</a>`;
  } else {
    main = `<div class="kv"><span class="k">Date</span><span class="v" id="v-day">${esc(dayLabel(v.day))}</span></div>
<div class="kv"><span class="k">Arrival window</span><span class="v" id="v-window">${esc(v.window)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(addr?.label ?? '')}</span></div>
<div class="kv"><span class="k">Estimate</span><span class="v">${esc(svc?.price ?? '')}</span></div>
<div class="kv"><span class="k">Pro's phone</span><span class="v">${esc(p.phone)}</span></div>
${v.notes ? `<div class="kv"><span class="k">Your notes</span><span class="v">${esc(v.notes)}</span></div>` : ''}
${
  v.status === 'canceled'
    ? ''
    : canChange(v)
      ? `<a class="line" id="resched-btn" href="${ctx.base}/v/${v.id}/reschedule">Reschedule</a><button class="line red" id="cancel-btn" onclick="openCancel()">Cancel visit</button>`
      : `<div class="banner info">This visit is less than 24 hours away, so it can't be changed in the app. Call ${esc(first(p.owner))} at ${esc(p.phone)}.</div>`
}`;
    if (canChange(v)) {
      const reasons = CANCEL_REASONS.map(
        (r) => `<button class="choice" role="radio" aria-checked="false" data-v="${esc(r)}" onclick="pickReason(this)"><span class="box"></span><div class="info"><div class="t">${esc(r)}</div></div></button>`,
      ).join('');
      dialogs = `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel this visit?"><h2>Cancel this visit?</h2>
<p>${esc(p.name)}, ${esc(shortDay(v.day))}, ${esc(v.window)}. There's no fee to cancel now.</p><p style="margin-bottom:2px"><b>What's the reason? (optional)</b></p><div id="reasons" role="radiogroup">${reasons}</div><div class="err" id="cerr"></div>
<div class="acts"><button onclick="hide('cancel')">Keep visit</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Yes, cancel it</button></div></div></div>`;
      script = `let R='';function openCancel(){R='';for(const o of document.querySelectorAll('#reasons .choice')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('cerr').textContent='';show('cancel')}
function pickReason(el){R=el.dataset.v;document.getElementById('cerr').textContent='';for(const o of document.querySelectorAll('#reasons .choice')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doCancel(){if(busy)return;busy=true;
 api('cancel',{id:${v.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/${v.id}?toast=canceled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`;
    }
  }
  const msg: Record<string, string> = { booked: 'Visit booked', moved: 'Visit moved', canceled: 'Visit canceled', paid: 'Payment sent' };
  const body = `${appbar(past ? 'Past visit' : 'Visit details', { back: true })}${top}${head}${main}
<div class="spacer"></div>${bottomNav(ctx, 'visits')}${menu(ctx)}${dialogs}${msg[t] ? toast(msg[t]) : ''}`;
  return renderPage({ title: past ? 'Past visit' : 'Visit details', css: CSS, body, ctx, script });
}

function reschedulePage(st: RepairsState, ctx: AppContext, v: Visit): AppResponse {
  const p = proOf(st, v.proId)!;
  const body = `${appbar('Pick a new time', { back: true, menu: false })}
<div class="banner info"><b>Now:</b> ${esc(dayLabel(v.day))}, ${esc(v.window)}<br>${esc(p.name)} · ${esc(v.service)}</div>
${timePicker(p, { day: -1, window: '' }, { day: v.day, window: v.window })}
<div class="error" id="err"></div>
<button class="primary" id="save" onclick="ask()">Save new time</button><div class="spacer"></div>
<div id="move" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Move this visit?"><h2>Move this visit?</h2>
<p>From <b>${esc(shortDay(v.day))}, ${esc(v.window)}</b><br>to <b id="move-to"></b></p><p>${esc(first(p.owner))} gets a notice right away.</p><div class="err" id="merr"></div>
<div class="acts"><button id="move-back" onclick="hide('move')">Keep current time</button><button id="move-ok" onclick="move()">Move visit</button></div></div></div>`;
  const script = `${PICKER_JS}const DAYS=${JSON.stringify(Object.fromEntries(BOOKABLE_DAYS.map((d) => [d, shortDay(d)])))};
function ask(){const e=document.getElementById('err');if(T.day<1){e.textContent='Pick a day';return}if(!T.window){e.textContent='Pick an arrival window';return}document.getElementById('move-to').textContent=DAYS[T.day]+', '+T.window;document.getElementById('merr').textContent='';show('move')}
let busy=false;function move(){if(busy)return;busy=true;api('reschedule',{id:${v.id},day:T.day,window:T.window}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/${v.id}?toast=moved');return}document.getElementById('merr').textContent=r.error||'That time is no longer open'})}`;
  return renderPage({ title: 'Pick a new time', css: CSS, body, ctx, script });
}

function payPage(st: RepairsState, ctx: AppContext, v: Visit): AppResponse {
  const p = proOf(st, v.proId)!;
  const due = dueCents(v);
  const tips = TIP_OPTIONS.map((o) => {
    const sub = o === 'No tip' ? '$0' : o === 'Custom' ? 'Amount' : money(tipFor(o, due));
    return `<button class="${o === 'No tip' ? 'sel' : ''}" data-v="${esc(o)}" aria-pressed="${o === 'No tip'}" onclick="tip(this)">${esc(o === 'No tip' ? 'None' : o)}<small id="tip-${o === 'Custom' ? 'custom' : o.replace('%', '')}">${esc(sub)}</small></button>`;
  }).join('');
  const cards = st.cards
    .map((c) =>
      c.expired
        ? `<div class="choice dim" aria-disabled="true" data-card="${esc(c.last4)}"><span class="box"></span><div class="info"><div class="t">${esc(cardName(c))}</div><div class="s">Expired ${esc(c.exp)}</div></div></div>`
        : `<button class="choice${c.id === st.defaultCardId ? ' sel' : ''}" role="radio" aria-checked="${c.id === st.defaultCardId}" data-card="${esc(c.last4)}" data-id="${c.id}" onclick="card(this)"><span class="box"></span><div class="info"><div class="t">${esc(
            cardName(c),
          )}</div><div class="s">Expires ${esc(c.exp)}${c.id === st.defaultCardId ? ' · Default' : ''}</div></div></button>`,
    )
    .join('');
  const names = Object.fromEntries(st.cards.map((c) => [c.id, cardName(c)]));
  const body = `${appbar('Invoice payment', { back: true, menu: false })}
<div class="head">${mono(p.name, 52)}<div><h2 style="font-size:20px">${esc(p.name)}</h2><div class="s">${esc(v.service)} · ${esc(shortDay(v.day))}</div></div></div>
<div class="kv"><span class="k">Invoice total</span><span class="v">${esc(money(due))}</span></div>
<div class="section">Add a tip for ${esc(first(p.owner))}</div>
<div class="tips" id="tips">${tips}</div>
<div class="sub" style="background:#fff;margin:0">100% of the tip goes to ${esc(first(p.owner))}.</div>
<div class="section">Payment method</div><div id="cards" role="radiogroup">${cards}</div>
<div class="sub">To add a card, go to Account on mendwick.com.</div>
<div class="kv"><span class="k">Tip</span><span class="v" id="sum-tip">$0.00</span></div>
<div class="kv total"><span class="k">You pay</span><span class="v" id="sum-total">${esc(money(due))}</span></div>
<div class="error" id="err"></div>
<button class="primary" id="pay" onclick="ask()">Pay ${esc(money(due))}</button><div class="spacer"></div>
<div id="custom" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Custom tip"><h2>Custom tip</h2><p>Enter a tip amount in dollars.</p><input id="custom-amt" type="text" inputmode="decimal" autocomplete="off" placeholder="0.00"><div class="err" id="tip-err"></div>
<div class="acts"><button onclick="hide('custom')">Cancel</button><button id="custom-ok" onclick="setCustom()">Set tip</button></div></div></div>
<div id="confirm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Confirm payment"><h2>Confirm payment</h2><p id="confirm-text"></p><div class="err" id="perr"></div>
<div class="acts"><button id="confirm-back" onclick="hide('confirm')">Cancel</button><button id="confirm-ok" onclick="pay()">Pay now</button></div></div></div>`;
  const script = `const DUE=${due};const NAMES=${JSON.stringify(names)};const PRO=${JSON.stringify(p.name)};const V={tip:'No tip',custom:0,card:${st.defaultCardId}};
const fmt=c=>'$'+(c/100).toLocaleString('en-US',{minimumFractionDigits:2,maximumFractionDigits:2});
function tipCents(){if(V.tip==='Custom')return V.custom;const m=/^(\\d+)%$/.exec(V.tip);return m?Math.round(DUE*Number(m[1])/100):0}
function paint(){for(const b of document.querySelectorAll('#tips button')){const on=b.dataset.v===V.tip;b.classList.toggle('sel',on);b.setAttribute('aria-pressed',String(on))}
 const t=tipCents();document.getElementById('sum-tip').textContent=fmt(t);document.getElementById('sum-total').textContent=fmt(DUE+t);document.getElementById('pay').textContent='Pay '+fmt(DUE+t)}
function tip(el){if(el.dataset.v==='Custom'){document.getElementById('custom-amt').value=V.custom?(V.custom/100).toFixed(2):'';document.getElementById('tip-err').textContent='';show('custom');return}V.tip=el.dataset.v;paint()}
function setCustom(){const s=document.getElementById('custom-amt').value.trim().replace(/^\\$/,'');if(!/^\\d{1,4}(\\.\\d{1,2})?$/.test(s)){document.getElementById('tip-err').textContent='Enter an amount like 12.50';return}
 V.custom=Math.round(Number(s)*100);V.tip='Custom';document.getElementById('tip-custom').textContent=fmt(V.custom);hide('custom');paint()}
function card(el){V.card=Number(el.dataset.id);for(const b of document.querySelectorAll('#cards button.choice')){const on=b===el;b.classList.toggle('sel',on);b.setAttribute('aria-checked',String(on))}}
function ask(){document.getElementById('confirm-text').textContent='Pay '+fmt(DUE+tipCents())+' to '+PRO+' with '+NAMES[V.card]+'?';document.getElementById('perr').textContent='';show('confirm')}
let busy=false;function pay(){if(busy)return;busy=true;api('pay',{id:${v.id},card:V.card,tip:V.tip,custom:V.custom}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/v/${v.id}?toast=paid');return}document.getElementById('perr').textContent=r.error||'Payment failed'})}`;
  return renderPage({ title: 'Invoice payment', css: CSS, body, ctx, script });
}

function requestRow(ctx: AppContext, r: QuoteRequest): string {
  const status =
    r.status === 'open'
      ? r.quotes.length
        ? `<span class="pill ok">Open · ${r.quotes.length} quote${r.quotes.length === 1 ? '' : 's'}</span>`
        : '<span class="pill">Waiting for quotes</span>'
      : r.status === 'hired'
        ? `<span class="pill grey">Hired ${esc(r.hired)}</span>`
        : '<span class="pill grey">Closed</span>';
  return `<a class="req" href="${ctx.base}/q/${r.id}" data-project="${esc(r.project)}"><div class="n">${esc(r.project)}${r.seeded ? '' : ' <span class="pill due">New</span>'}</div><div class="s">Posted ${esc(shortDay(r.created))} · ${esc(r.budget)} · ${esc(r.timing)}</div>${status}</a>`;
}

function projectsPage(st: RepairsState, ctx: AppContext, t: string): AppResponse {
  const fresh = st.requests.filter((r) => !r.seeded).sort((a, b) => b.seq - a.seq)[0];
  const list = [...st.requests].sort((a, b) => (a.status === 'open' ? 0 : 1) - (b.status === 'open' ? 0 : 1) || b.created - a.created || b.id - a.id);
  const body = `${appbar('Projects')}
${fresh ? `<div class="banner good"><h2>Request sent</h2>We're matching your ${esc(fresh.project.toLowerCase())} project with local pros. Quotes usually arrive within a day.</div>` : ''}
<div class="sub">Describe a bigger job once and compare quotes from up to 4 pros. No obligation to hire.</div>
<a class="primary" id="new-project" href="${ctx.base}/projects/new">Get quotes for a project</a>
<div class="section">Your requests</div>
${list.map((r) => requestRow(ctx, r)).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'projects')}${menu(ctx)}${t === 'sent' && fresh ? toast('Request sent') : ''}`;
  return renderPage({ title: 'Projects', css: CSS, body, ctx, root: true });
}

function requestPage(st: RepairsState, ctx: AppContext, r: QuoteRequest): AppResponse {
  const quotes = r.quotes.map(([who, price]) => `<div class="svc"><div><div class="n">${esc(who)}</div><div class="s">Quote sent</div></div><div class="p">${esc(price)}</div></div>`).join('');
  const body = `${appbar(r.project, { back: true })}
<div class="kv"><span class="k">Size</span><span class="v">${esc(r.size || 'Not given')}</span></div>
<div class="kv"><span class="k">Budget</span><span class="v">${esc(r.budget)}</span></div>
<div class="kv"><span class="k">Timing</span><span class="v">${esc(r.timing)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(addressOf(st, r.addressId)?.label ?? '')}</span></div>
${r.details ? `<div class="para">${esc(r.details)}</div>` : ''}
<div class="section">Quotes received</div>${quotes || '<div class="empty">No quotes yet. We\'ll notify you when pros reply.</div>'}
${r.status === 'hired' ? `<div class="banner good">You hired ${esc(r.hired)}.</div>` : r.status === 'closed' ? '<div class="banner info">You closed this request.</div>' : ''}
<div class="spacer"></div>${bottomNav(ctx, 'projects')}${menu(ctx)}`;
  return renderPage({ title: r.project, css: CSS, body, ctx });
}

const choiceList = (id: string, options: readonly string[], cur: string, fn: string): string =>
  `<div id="${id}" role="radiogroup">${options
    .map((o) => `<button class="choice slim${o === cur ? ' sel' : ''}" role="radio" aria-checked="${o === cur}" data-v="${esc(o)}" onclick="${fn}(this)"><span class="box"></span><div class="info"><div class="t">${esc(o)}</div></div></button>`)
    .join('')}</div>`;
const QUOTE_JS = `function mark(sel,el,attr){for(const o of document.querySelectorAll(sel)){const on=o===el;o.classList.toggle('sel',on);o.setAttribute(attr,String(on))}}
function clr(k){const e=document.getElementById('e-'+k);if(e)e.textContent='';const f=document.getElementById('f-'+k);if(f)f.classList.remove('bad')}
function errs(r){for(const [k,m] of Object.entries(r.errors||{})){const e=document.getElementById('e-'+k);if(e)e.textContent=m;const f=document.getElementById('f-'+k);if(f)f.classList.add('bad')}if(r.error)document.getElementById('err').textContent=r.error}
`;

/** Get quotes, step 1 of 3: the project (a grid of tiles), how big it is and where. */
function quoteProjectPage(st: RepairsState, ctx: AppContext): AppResponse {
  const d = st.quote;
  const tiles = PROJECT_TYPES.map((o) => `<button class="ptile${o === d.project ? ' sel' : ''}" role="radio" aria-checked="${o === d.project}" data-v="${esc(o)}" onclick="pickType(this)">${esc(o)}</button>`).join('');
  const sizes = SIZES.map(([s, sub]) => `<button class="chip${s === d.size ? ' sel' : ''}" data-v="${esc(s)}" aria-pressed="${s === d.size}" onclick="size(this)">${esc(s)}<small>${esc(sub)}</small></button>`).join('');
  const addr = addressOf(st, d.addressId) ?? st.addresses[0]!;
  const ids = Object.fromEntries(st.addresses.map((a) => [a.label, a.id]));
  const body = `${appbar('New project', { back: true, menu: false })}
<div class="steps">Step 1 of 3 · Project</div>
<div class="field" id="f-project"><label>What's the project?</label><div class="ptiles" id="types" role="radiogroup">${tiles}</div><div class="ferr" id="e-project"></div></div>
<div class="field" id="f-size"><label>How big is it? (optional)</label><div class="chips">${sizes}</div></div>
<div class="field" id="f-address"><label>Where</label><button class="pick" id="where-btn" onclick="show('wheres')"><span id="where-v">${esc(addr.label)}</span><span>&#9662;</span></button></div>
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Next</button><div class="spacer"></div>
${pickerDialog('wheres', 'Where', st.addresses.map((a) => a.label), addr.label, 'pickWhere')}`;
  const script = `${QUOTE_JS}const V={project:${JSON.stringify(d.project)},size:${JSON.stringify(d.size)},address:${addr.id}};const IDS=${JSON.stringify(ids)};
function pickType(el){V.project=el.dataset.v;mark('#types .ptile',el,'aria-checked');clr('project')}
function size(el){const v=el.dataset.v;V.size=V.size===v?'':v;for(const o of document.querySelectorAll('#f-size .chip')){const on=o.dataset.v===V.size;o.classList.toggle('sel',on);o.setAttribute('aria-pressed',String(on))}}
function pickWhere(v){V.address=IDS[v];document.getElementById('where-v').textContent=v;for(const o of document.querySelectorAll('#wheres .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('wheres')}
let busy=false;function next(){if(busy)return;clr('project');document.getElementById('err').textContent='';busy=true;
 api('quote-project',V).then(r=>{busy=false;if(r.ok){location.href=BASE+'/projects/new/budget';return}errs(r)})}`;
  return renderPage({ title: 'New project', css: CSS, body, ctx, script });
}

/** Get quotes, step 2 of 3: budget and timing. */
function quoteBudgetPage(st: RepairsState, ctx: AppContext): AppResponse {
  const d = st.quote;
  const body = `${appbar('New project', { back: true, menu: false })}
<div class="steps">Step 2 of 3 · Budget and timing</div>
<div class="sub" style="padding-bottom:0">${esc(d.project)}</div>
<div class="field" id="f-budget"><label>Budget</label>${choiceList('budget', BUDGETS, d.budget, 'budget')}<div class="ferr" id="e-budget"></div></div>
<div class="field" id="f-timing"><label>When do you want it done?</label>${choiceList('timing', TIMINGS, d.timing, 'timing')}<div class="ferr" id="e-timing"></div></div>
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Next</button><div class="spacer"></div>`;
  const script = `${QUOTE_JS}const V={budget:${JSON.stringify(d.budget)},timing:${JSON.stringify(d.timing)}};
function budget(el){V.budget=el.dataset.v;mark('#budget .choice',el,'aria-checked');clr('budget')}
function timing(el){V.timing=el.dataset.v;mark('#timing .choice',el,'aria-checked');clr('timing')}
let busy=false;function next(){if(busy)return;clr('budget');clr('timing');document.getElementById('err').textContent='';busy=true;
 api('quote-budget',V).then(r=>{busy=false;if(r.ok){location.href=BASE+'/projects/new/review';return}errs(r)})}`;
  return renderPage({ title: 'New project', css: CSS, body, ctx, script });
}

/** Get quotes, step 3 of 3: the summary, an optional note for the pros, and Send request. */
function quoteReviewPage(st: RepairsState, ctx: AppContext): AppResponse {
  const d = st.quote;
  const body = `${appbar('Check your request', { back: true, menu: false })}
<div class="steps">Step 3 of 3 · Send</div>
<div class="kv"><span class="k">Project</span><span class="v" id="rv-project">${esc(d.project)}</span></div>
<div class="kv"><span class="k">Size</span><span class="v">${esc(d.size || 'Not given')}</span></div>
<div class="kv"><span class="k">Budget</span><span class="v" id="rv-budget">${esc(d.budget)}</span></div>
<div class="kv"><span class="k">Timing</span><span class="v" id="rv-timing">${esc(d.timing)}</span></div>
<div class="kv"><span class="k">Where</span><span class="v">${esc(addressOf(st, d.addressId)?.line ?? '')}</span></div>
<div class="field" id="f-details"><label for="details">Describe the project (optional)</label><textarea id="details" maxlength="${DETAILS_MAX + 40}" placeholder="What's there now, what you'd like, any materials you've picked">${esc(d.details)}</textarea><div class="ferr" id="e-details"></div></div>
<div class="sub">We'll share this with up to 4 pros who do this kind of work near you. They can message you at ${esc(USER_PHONE)}.</div>
<div class="error" id="err"></div>
<button class="primary" id="send" onclick="send()">Send request</button>
<a class="line" href="${ctx.base}/projects/new">Edit</a><div class="spacer"></div>`;
  const script = `${QUOTE_JS}let busy=false;function send(){if(busy)return;clr('details');document.getElementById('err').textContent='';busy=true;
 api('quote-send',{details:document.getElementById('details').value}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/projects?toast=sent');return}errs(r)})}`;
  return renderPage({ title: 'Check your request', css: CSS, body, ctx, script });
}

function accountPage(st: RepairsState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const sw = (key: string, t: string, s: string, on: boolean): string =>
    `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div><button class="switch${on ? ' on' : ''}" role="switch" aria-checked="${on}" aria-label="${esc(t)}" data-k="${key}" onclick="pref(this)"></button></div>`;
  const body = `${appbar('Account')}
<div class="head">${mono(USER, 60)}<div><h2>${esc(USER)}</h2><div class="s">${esc(USER_EMAIL)}</div><div class="s">${esc(USER_PHONE)}</div></div></div>
<div class="section">Addresses</div>${st.addresses.map((a) => row(a.label, a.line)).join('')}
<div class="section">Payment methods</div>${st.cards.map((c) => row(cardName(c), c.expired ? `Expired ${c.exp}` : `Expires ${c.exp}${c.id === st.defaultCardId ? ' · Default' : ''}`)).join('')}
<div class="section">Mendwick Plus</div>${row('Not a member', 'Save 10% on every visit and skip the service call fee. $7.99 a month.')}
<div class="section">Notifications</div>${sw('reminders', 'Visit reminders', 'The day before and when your pro is on the way', st.prefs.reminders)}${sw('messages', 'Messages from pros', 'Push and text', st.prefs.messages)}${sw(
    'deals',
    'Deals and seasonal tips',
    'Email, about twice a month',
    st.prefs.deals,
  )}
<div class="section">Support</div>${row('Help center', 'Billing, visits and the Mendwick guarantee')}${row('Terms and privacy', 'Version 4.2')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  const script = `function pref(el){const on=el.getAttribute('aria-checked')!=='true';api('pref',{key:el.dataset.k,on}).then(r=>{if(!r.ok)return;el.classList.toggle('on',on);el.setAttribute('aria-checked',String(on))})}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, script, root: true });
}

function handleApi(st: RepairsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'book-service': {
      const p = proOf(st, Number(b.pro));
      const service = str(b.service);
      if (!p || !p.accepting) return json({ ok: false, error: 'This pro is not taking bookings' }, 409);
      if (!p.services.some((s) => s.name === service)) return json({ ok: false, error: 'Pick what you need done' });
      const keep = st.booking.proId === p.id ? st.booking : emptyBooking();
      st.booking = { ...keep, proId: p.id, service };
      return json({ ok: true });
    }
    case 'book-time': {
      const p = proOf(st, Number(b.pro));
      if (!p || st.booking.proId !== p.id) return json({ ok: false, error: 'Start again from the pro' }, 409);
      const d = { ...st.booking, day: Number(b.day), window: str(b.window) };
      const errors = bookingErrors(st, d, 'time');
      if (Object.keys(errors).length) return json({ ok: false, error: Object.values(errors)[0] });
      st.booking = d;
      return json({ ok: true });
    }
    case 'book': {
      const p = proOf(st, Number(b.pro));
      const d = { ...st.booking, addressId: Number(b.address), notes: str(b.notes).trim() };
      if (!p || d.proId !== p.id) return json({ ok: false, error: 'Start again from the pro' }, 409);
      const errors = bookingErrors(st, d, 'all');
      if (Object.keys(errors).length) return json({ ok: false, error: Object.values(errors)[0] });
      const id = 701 + st.visits.filter((v) => !v.seeded).length;
      st.visits.push({
        id,
        proId: p.id,
        service: d.service,
        day: d.day,
        window: d.window,
        addressId: d.addressId,
        notes: d.notes,
        status: 'scheduled',
        cancelReason: '',
        invoice: [],
        payment: null,
        movedFrom: null,
        seeded: false,
        seq: st.seq,
      });
      st.booking = emptyBooking();
      return json({ ok: true, id });
    }
    case 'reschedule': {
      const v = st.visits.find((x) => x.id === Number(b.id));
      if (!v || !canChange(v)) return json({ ok: false, error: 'This visit can no longer be changed in the app' }, 409);
      const p = proOf(st, v.proId)!;
      const day = Number(b.day);
      const window = str(b.window);
      if (!BOOKABLE_DAYS.includes(day) || !freeWindows(p, day).includes(window)) return json({ ok: false, error: 'That time is no longer open' }, 409);
      if (day === v.day && window === v.window) return json({ ok: false, error: 'That is the time you have now' });
      v.movedFrom = { day: v.movedFrom?.day ?? v.day, window: v.movedFrom?.window ?? v.window, seq: st.seq };
      v.day = day;
      v.window = window;
      v.seq = st.seq;
      return json({ ok: true });
    }
    case 'cancel': {
      const v = st.visits.find((x) => x.id === Number(b.id));
      const reason = str(b.reason);
      if (!v || !canChange(v)) return json({ ok: false, error: 'This visit can no longer be canceled in the app' }, 409);
      if (reason && !CANCEL_REASONS.includes(reason)) return json({ ok: false, error: 'Pick a reason from the list' });
      v.status = 'canceled';
      v.cancelReason = reason || 'Not given';
      v.seq = st.seq;
      return json({ ok: true });
    }
    case 'pay': {
      const v = st.visits.find((x) => x.id === Number(b.id));
      if (!v || !paymentDue(v)) return json({ ok: false, error: 'This invoice is already paid' }, 409);
      const c = cardOf(st, Number(b.card));
      if (!c || c.expired) return json({ ok: false, error: 'Choose a card that has not expired' });
      const tip = str(b.tip);
      if (!TIP_OPTIONS.includes(tip)) return json({ ok: false, error: 'Choose a tip' });
      const custom = Math.round(Number(b.custom));
      if (tip === 'Custom' && !(custom >= 0 && custom <= 1_000_000)) return json({ ok: false, error: 'Enter a tip amount' });
      const due = dueCents(v);
      const tipCents = tip === 'Custom' ? custom : tipFor(tip, due);
      v.payment = { cardId: c.id, tip, tipCents, totalCents: due + tipCents, seq: st.seq };
      return json({ ok: true });
    }
    case 'quote-project': {
      const d = { ...st.quote, project: str(b.project), size: str(b.size), addressId: Number(b.address) };
      const errors = quoteErrors(st, d, 'project');
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.quote = d;
      return json({ ok: true });
    }
    case 'quote-budget': {
      const d = { ...st.quote, budget: str(b.budget), timing: str(b.timing) };
      const errors = quoteErrors(st, d, 'budget');
      if (errors.project) return json({ ok: false, error: 'Start your request again' }, 409);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.quote = d;
      return json({ ok: true });
    }
    case 'quote-send': {
      const d = { ...st.quote, details: str(b.details).trim() };
      const errors = quoteErrors(st, d, 'all');
      if (errors.project || errors.budget || errors.timing) return json({ ok: false, error: 'Start your request again' }, 409);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.requests.push({ id: 951 + st.requests.filter((r) => !r.seeded).length, ...d, status: 'open', quotes: [], hired: '', created: 0, seeded: false, seq: st.seq });
      st.quote = emptyQuote();
      return json({ ok: true });
    }
    case 'pref': {
      const key = str(b.key);
      if (key !== 'reminders' && key !== 'messages' && key !== 'deals') return json({ ok: false }, 400);
      st.prefs[key] = b.on === true;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleRepairs(st: RepairsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub, sub2] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'trade') {
    const trade = TRADE_NAMES.find((x) => slug(x) === arg);
    if (!trade) return notFound(CSS);
    const pros = st.order.map((id) => proOf(st, id)).filter((p): p is Pro => !!p && p.trade === trade);
    return prosPage(ctx, trade, pros, `${pros.length} pros near you`);
  }
  if (head === 'search') {
    const q = (req.query.get('q') ?? '').trim().slice(0, 60);
    const ql = q.toLowerCase();
    const pros = st.order
      .map((id) => proOf(st, id))
      .filter((p): p is Pro => !!p && !!ql && `${p.name} ${p.trade} ${p.services.map((s) => s.name).join(' ')}`.toLowerCase().includes(ql));
    return prosPage(ctx, q ? `“${q}”` : 'Search', pros, `${pros.length} result${pros.length === 1 ? '' : 's'}`);
  }
  if (head === 'p') {
    const p = proOf(st, Number(arg));
    if (!p) return notFound(CSS);
    if (sub === 'book') {
      if (!p.accepting) return { status: 303, redirect: `${ctx.base}/p/${p.id}` };
      if (sub2 === undefined) return bookServicePage(st, ctx, p);
      if (Object.keys(bookingErrors(st, st.booking, 'service')).length || st.booking.proId !== p.id) return { status: 303, redirect: `${ctx.base}/p/${p.id}/book` };
      if (sub2 === 'time') return bookTimePage(st, ctx, p);
      if (sub2 === 'review') return Object.keys(bookingErrors(st, st.booking, 'time')).length ? { status: 303, redirect: `${ctx.base}/p/${p.id}/book/time` } : bookReviewPage(st, ctx, p);
      return notFound(CSS);
    }
    return proPage(ctx, p);
  }
  if (head === 'visits') return visitsPage(st, ctx, arg === 'past');
  if (head === 'v') {
    const v = st.visits.find((x) => x.id === Number(arg));
    if (!v) return notFound(CSS);
    if (sub === 'reschedule') return canChange(v) ? reschedulePage(st, ctx, v) : { status: 303, redirect: `${ctx.base}/v/${v.id}` };
    if (sub === 'pay') return paymentDue(v) ? payPage(st, ctx, v) : { status: 303, redirect: `${ctx.base}/v/${v.id}` };
    return visitPage(st, ctx, v, t);
  }
  if (head === 'projects') {
    if (arg !== 'new') return projectsPage(st, ctx, t);
    if (sub === undefined) return quoteProjectPage(st, ctx);
    if (Object.keys(quoteErrors(st, st.quote, 'project')).length) return { status: 303, redirect: `${ctx.base}/projects/new` };
    if (sub === 'budget') return quoteBudgetPage(st, ctx);
    if (sub === 'review') return Object.keys(quoteErrors(st, st.quote, 'budget')).length ? { status: 303, redirect: `${ctx.base}/projects/new/budget` } : quoteReviewPage(st, ctx);
    return notFound(CSS);
  }
  if (head === 'q') {
    const r = st.requests.find((x) => x.id === Number(arg));
    return r ? requestPage(st, ctx, r) : notFound(CSS);
  }
  if (head === 'account') return accountPage(st, ctx);
  return notFound(CSS);
}
