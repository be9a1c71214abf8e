import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, bottomNav as navBar, json, kitCss, notFound, overflowMenu, renderPage, str, toast } from '../kit.js';
import { esc } from '../shared.js';
import {
  bestSeats,
  bookingOf,
  CARD,
  CINEMA,
  CINEMA_ADDRESS,
  cleanText,
  dayLabel,
  dayOfMonth,
  digitsOf,
  emptyDraft,
  FEE_CENTS,
  FORMAT_CENTS,
  giftBalance,
  giftCardErrors,
  last4,
  MAX_TICKETS,
  MOVIES,
  money,
  movieOf,
  NAME_MAX,
  NOW_SHOWING,
  onSale,
  OWNER,
  OWNER_EMAIL,
  past,
  REFUNDS,
  REFUND_NAMES,
  relDay,
  REMINDERS,
  ROWS,
  SEAT_PREFS,
  SEAT_PREF_NAMES,
  SEATS_PER_ROW,
  shortDay,
  SHOW_DAYS,
  takenSeats,
  ticketCount,
  TICKET_TYPES,
  totalCents,
  upcoming,
  WALLET,
  weekdayOf,
  type Booking,
  type CinemaState,
  type Movie,
  type Settings,
} from './state.js';

const ACCENT = '#6a1b9a';
const SOFT = '#f3e5fb';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f5f2f8}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #ddd3e6}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#675d70}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#2d0f45}
.hello .s{font-size:16px;font-weight:normal;color:#5a4e66;margin-top:4px}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #ddd3e6}
.card h2{margin:0 0 6px;font-size:21px}
.card .d{font-size:16px;color:#4a3f55;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.gone{background:#fff5f5;border-color:#ffc9c9}
.card.promo{background:#2d0f45;border-color:#2d0f45;color:#fff}
.card.promo .d{color:#e6d9f2}
.card.promo .lbl{color:#e0b3ff}
.mv{display:flex;gap:14px;align-items:center;min-height:96px;padding:12px 16px;background:#fff;border-bottom:1px solid #eae3f0}
.mv .info{flex:1;min-width:0}
.mv .n{font-size:19px;font-weight:bold}
.mv .s{font-size:15px;color:#5a4e66;margin-top:3px}
.mv .go{font-size:24px;color:#a99bb6}
.mv.soon .n{color:#4a3f55}
.poster{width:54px;height:76px;flex:none;border-radius:8px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold;box-shadow:0 1px 3px rgba(0,0,0,.25)}
.poster.sm{width:44px;height:60px;font-size:15px}
.poster.lg{width:96px;height:136px;font-size:28px}
.hero{display:flex;gap:16px;padding:16px;background:#fff;border-bottom:1px solid #eae3f0}
.hero h2{margin:0 0 6px;font-size:23px}
.hero .s{font-size:16px;color:#5a4e66;margin-top:4px}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:bold;background:${SOFT};color:${ACCENT}}
.badge.warn{background:#fff3bf;color:#8d6708}
.badge.grey{background:#f1f3f5;color:#5b6878}
.badge.red{background:#ffe3e3;color:#c92a2a}
.intro{padding:14px 16px 4px;font-size:16px;color:#4a3f55}
.dstrip{display:flex;gap:6px;overflow-x:auto;padding:10px 10px}
.dstrip a{flex:none;width:52px;height:72px;border-radius:12px;border:2px solid #d6c9e2;background:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:14px;font-weight:bold;color:#4a3f55}
.dstrip b{font-size:22px}
.dstrip a.on{border-color:${ACCENT};background:${ACCENT};color:#fff}
.dayh{padding:8px 16px 0;font-size:20px;font-weight:bold;color:#2d0f45}
.fmt{padding:14px 16px 6px;font-size:17px;font-weight:bold;color:#2d0f45}
.fmt .muted{font-weight:normal}
.times{display:flex;flex-wrap:wrap;gap:10px;padding:0 16px 6px}
.times .time{display:flex;flex-direction:column;align-items:center;justify-content:center;min-width:104px;height:54px;border-radius:10px;border:2px solid ${ACCENT};background:#fff;color:${ACCENT};font-size:18px;font-weight:bold}
.times .time.off{border-color:#d0c8d8;color:#a59bb0;font-size:16px;background:#f6f4f8}
.times .time.off span{font-size:12px;font-weight:bold;color:#c92a2a}
.bk{display:flex;gap:14px;align-items:center;min-height:90px;padding:12px 16px;background:#fff;border-bottom:1px solid #eae3f0}
.bk .info{flex:1;min-width:0}
.bk .n{font-size:18px;font-weight:bold}
.bk .s{font-size:15px;color:#5a4e66;margin-top:2px}
.bk.off .n{color:#868e96}
.seg2{display:flex;gap:10px;margin:8px 12px}
.seg2 a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #d6c9e2;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#4a3f55}
.seg2 a.on{border-color:${ACCENT};background:${SOFT};color:#3d0b5e}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #eae3f0;font-size:17px}
.kv .k{color:#5a4e66;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:19px}
.tt{display:flex;gap:14px;align-items:center;min-height:74px;padding:12px 16px;background:#fff;border-bottom:1px solid #eae3f0}
.tt .info{flex:1}
.tt .t{font-size:18px;font-weight:bold}
.tt .s{font-size:15px;color:#5a4e66;margin-top:3px}
.stepper button[disabled]{opacity:.35}
.footer{position:fixed;left:0;right:0;bottom:0;z-index:30;background:#fff;border-top:1px solid #ddd3e6;padding:4px 0}
.footer .sum{padding:8px 16px 0;font-size:16px;color:#4a3f55;min-height:22px;font-weight:bold}
.footer .primary{margin:8px 12px}
.primary[disabled]{background:#bba6cc!important}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.screen{margin:14px 40px 4px;height:26px;border-radius:0 0 50% 50%/0 0 100% 100%;border-top:5px solid ${ACCENT};text-align:center;font-size:13px;font-weight:bold;letter-spacing:4px;color:#5a4e66;padding-top:4px}
.map{padding:10px 8px 6px}
.srow2{display:flex;align-items:center;justify-content:center;gap:3px;margin-bottom:5px}
.srow2 .rl{width:16px;text-align:center;font-size:13px;font-weight:bold;color:#5a4e66}
.srow2 .gap{width:14px}
.seat{width:25px;height:26px;border-radius:7px 7px 4px 4px;background:#fff;border:2px solid #9d86b3!important;font-size:10px;color:#5a4e66;line-height:22px;text-align:center}
.seat.taken{background:#d9d3df!important;border-color:#d9d3df!important;color:#d9d3df}
.seat.sel{background:${ACCENT}!important;border-color:${ACCENT}!important;color:#fff}
.legend{display:flex;justify-content:center;gap:18px;padding:6px 16px;font-size:14px;color:#4a3f55}
.legend i{display:inline-block;width:16px;height:16px;border-radius:4px;vertical-align:middle;margin-right:6px;border:2px solid #9d86b3;background:#fff}
.legend i.sel{background:${ACCENT};border-color:${ACCENT}}
.legend i.taken{background:#d9d3df;border-color:#d9d3df}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:66px;padding:12px 16px;background:#fff;border-bottom:1px solid #eae3f0;text-align:left}
.opt .info{flex:1;min-width:0}
.opt .t{font-size:18px;font-weight:bold}
.opt .s{font-size:15px;color:#5a4e66;margin-top:3px}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.opt.sel{background:#faf5fd}
.opt[disabled]{opacity:.55}
.dialog .opt{min-height:56px;padding:10px 4px;border-bottom:1px solid #f1f3f5;background:#fff}
.dialog .opt .t{font-size:17px}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
.dialog .acts button{white-space:nowrap;padding:12px 12px}
.srow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #eae3f0;width:100%;text-align:left}
.srow .info{flex:1;min-width:0}
.srow .t{font-size:18px}
.srow .s{font-size:15px;color:#5a4e66;margin-top:3px}
.srow .v{font-size:16px;font-weight:bold;color:${ACCENT}}
.srow .go{font-size:22px;color:#a99bb6}
.av{width:46px;height:46px;border-radius:23px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold;background:${ACCENT}}
.gc{display:flex;gap:14px;align-items:center;min-height:72px;padding:12px 16px;background:#fff;border-bottom:1px solid #eae3f0}
.gc .ic{width:52px;height:34px;flex:none;border-radius:6px;background:linear-gradient(135deg,${ACCENT},#c2255c);color:#fff;font-size:12px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.gc .info{flex:1;min-width:0}
.gc .t{font-size:18px;font-weight:bold}
.gc .s{font-size:15px;color:#5a4e66;margin-top:2px}
.gc .p{font-size:17px;font-weight:bold;flex:none}
.code{margin:12px;padding:18px;background:#fff;border-radius:14px;border:2px dashed #c9b6da;text-align:center}
.code .k{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:#5a4e66}
.code .c{font-size:28px;font-weight:bold;letter-spacing:2px;margin:6px 0 10px;color:#2d0f45}
.code .bars{height:54px;margin:0 auto;width:240px;background:repeating-linear-gradient(90deg,#1f2328 0 3px,#fff 3px 5px,#1f2328 5px 6px,#fff 6px 9px)}
.field .hint{font-size:15px;color:#5a4e66;margin-top:6px}
.field.fl{display:flex;flex-direction:column}
.field.fl label{order:-1}
.field.bad input{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.snack{position:fixed;left:16px;right:16px;bottom:96px;z-index:80;background:#25282c;color:#fff;border-radius:10px;padding:15px 18px;font-size:17px;box-shadow:0 4px 14px rgba(0,0,0,.35)}
`;

type Tab = 'movies' | 'tickets' | 'wallet' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'movies', label: 'Movies', glyph: '&#9654;', href: `${ctx.base}/` },
      { id: 'tickets', label: 'My tickets', glyph: '&#9776;', href: `${ctx.base}/tickets` },
      { id: 'wallet', label: 'Wallet', glyph: '$', href: `${ctx.base}/wallet` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['My tickets', `${ctx.base}/tickets`],
    ['Wallet and gift cards', `${ctx.base}/wallet`],
    ['Preferences', `${ctx.base}/account/preferences`],
  ]);

const POSTER_COLORS: Readonly<Record<string, string>> = {
  'midnight-harbor': '#1c3d5a',
  'midnight-harvest': '#7a3e00',
  'last-orbit': '#1b1f3b',
  'paper-lanterns': '#d9480f',
  'second-serve': '#2b8a3e',
  'fast-lane-family': '#c2255c',
  'sundown-rally': '#e67700',
  'quiet-acres': '#5c940d',
};
const initials = (title: string): string =>
  title
    .replace(/^The /, '')
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0] ?? '')
    .join('');
const poster = (m: Movie | undefined, size = ''): string =>
  `<div class="poster ${size}" style="background:${POSTER_COLORS[m?.id ?? ''] ?? ACCENT}" aria-hidden="true">${esc(initials(m?.title ?? ''))}</div>`;
const runtime = (min: number): string => `${Math.floor(min / 60)}h ${String(min % 60).padStart(2, '0')}m`;
const ticketsLine = (t: { adult: number; child: number; senior: number }): string =>
  TICKET_TYPES.filter(([k]) => t[k] > 0)
    .map(([k, name]) => `${t[k]} ${name}`)
    .join(', ');
const countLine = (n: number): string => `${n} ticket${n === 1 ? '' : 's'}`;
const seatsLine = (seats: readonly string[]): string => (seats.length ? seats.join(', ') : '—');
const refundLine = (b: Booking): string =>
  b.refund === 'Wallet credit' ? `${money(b.cents)} added to your ${WALLET}` : `${money(b.cents)} refunded to ${b.paidWith}`;

/** A radio row; `fn(el)` runs on a tap. */
const radioRow = (group: string, v: string, title: string, sub: string, on: boolean, fn: string, extra = ''): string =>
  `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-g="${group}" data-v="${esc(v)}" onclick="${fn}(this)"${extra}><span class="rad"></span><div class="info"><div class="t">${esc(title)}</div>${sub ? `<div class="s">${esc(sub)}</div>` : ''}</div></button>`;

/** A radio list in a dialog; `fn(el)` runs on a pick. */
function optionDialog(id: string, title: string, opts: readonly { v: string; s: string }[], current: string, fn: string): string {
  const rows = opts.map((o) => radioRow(id, o.v, o.v, o.s, o.v === current, fn)).join('');
  return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')"><div class="dialog" role="dialog" aria-label="${esc(title)}"><h2>${esc(title)}</h2>${rows}
<div class="acts"><button onclick="hide('${id}')">Cancel</button></div></div></div>`;
}

function movieRow(ctx: AppContext, m: Movie): string {
  const formats = [...new Set(m.showtimes.map((s) => s.format))].filter((f) => f !== 'Standard');
  return `<a class="mv" href="${ctx.base}/m/${m.id}" data-id="${m.id}">${poster(m)}<div class="info"><div class="n">${esc(m.title)}</div><div class="s">${esc(m.rating)} · ${runtime(m.minutes)} · ${esc(m.genre)}</div>${
    formats.length ? `<div class="s">${formats.map((f) => `<span class="badge">${esc(f)}</span>`).join(' ')}</div>` : ''
  }</div><span class="go">&rsaquo;</span></a>`;
}

function homePage(st: CinemaState, ctx: AppContext): AppResponse {
  const next = upcoming(st)[0];
  const nm = next ? movieOf(next.movieId) : undefined;
  const soon = MOVIES.filter((m) => m.opens)
    .map(
      (m) =>
        `<div class="mv soon">${poster(m)}<div class="info"><div class="n">${esc(m.title)}</div><div class="s">${esc(m.rating)} · ${runtime(m.minutes)} · ${esc(m.genre)}</div><div class="s">Opens ${esc(m.opens ?? '')}</div></div></div>`,
    )
    .join('');
  const body = `${appbar('ReelPass')}
<div class="hello">Hi ${esc(OWNER.split(' ')[0] ?? '')}<div class="s">${esc(CINEMA)} · ${esc(CINEMA_ADDRESS)}</div></div>
<div class="section">Now showing</div>${NOW_SHOWING.map((m) => movieRow(ctx, m)).join('')}
${next && nm ? `<a class="card" href="${ctx.base}/b/${next.id}"><div class="lbl">Your next movie</div><h2>${esc(relDay(next.day))}, ${esc(next.time)}</h2><div class="d">${esc(countLine(ticketCount(next)))} for ${esc(nm.title)} · Screen ${next.screen}</div></a>` : ''}
<div class="section">Coming soon</div>${soon}
<div class="card promo"><div class="lbl">ReelPass Rewards</div><h2>${st.points.toLocaleString('en-US')} points</h2><div class="d">A free medium popcorn at 1,500 points. You earn 10 points for every dollar.</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'movies')}${menu(ctx)}`;
  return renderPage({ title: 'ReelPass', css: CSS, body, ctx, root: true });
}

function moviePage(st: CinemaState, ctx: AppContext, m: Movie, dayQ: number): AppResponse {
  const head = `${appbar(m.title, { back: true })}
<div class="hero">${poster(m, 'lg')}<div><h2>${esc(m.title)}</h2><div class="s">${esc(m.rating)} · ${runtime(m.minutes)}</div><div class="s">${esc(m.genre)}</div></div></div>
<div class="intro">${esc(m.synopsis)}</div>`;
  if (m.opens) {
    const body = `${head}<div class="card note"><h2>Opens ${esc(m.opens)}</h2><div class="d">Tickets aren't on sale yet. Check back soon.</div></div><div class="spacer"></div>${bottomNav(ctx, 'movies')}${menu(ctx)}`;
    return renderPage({ title: m.title, css: CSS, body, ctx });
  }
  const day = SHOW_DAYS.includes(dayQ) ? dayQ : (SHOW_DAYS[0] ?? 0);
  const strip = SHOW_DAYS.map(
    (d) =>
      `<a class="${d === day ? 'on' : ''}" href="${ctx.base}/m/${m.id}?day=${d}" aria-label="${esc(dayLabel(d))}">${d === 0 ? 'Today' : esc(weekdayOf(d).slice(0, 3))}<b>${dayOfMonth(d)}</b></a>`,
  ).join('');
  const formats = [...new Set(m.showtimes.map((s) => s.format))];
  const groups = formats
    .map((f) => {
      const times = m.showtimes
        .filter((s) => s.format === f)
        .map((s) =>
          onSale(st, m.id, day, s.time)
            ? `<a class="time" href="${ctx.base}/buy/tickets?m=${m.id}&day=${day}&time=${encodeURIComponent(s.time)}" data-time="${esc(s.time)}">${esc(s.time)}</a>`
            : `<div class="time off" aria-disabled="true" data-time="${esc(s.time)}">${esc(s.time)}<span>Sold out</span></div>`,
        )
        .join('');
      const extra = FORMAT_CENTS[f] ? ` <span class="muted">+${money(FORMAT_CENTS[f] ?? 0)} per ticket</span>` : '';
      return `<div class="fmt">${esc(f)}${extra}</div><div class="times">${times}</div>`;
    })
    .join('');
  const body = `${head}
<div class="section">Showtimes</div>
<div class="dstrip">${strip}</div>
<div class="dayh">${esc(dayLabel(day))}</div>
${groups}
<div class="intro">All showtimes at ${esc(CINEMA)}. Trailers start at the listed time; the movie about 20 minutes later.</div>
<div class="spacer"></div>${bottomNav(ctx, 'movies')}${menu(ctx)}`;
  return renderPage({ title: m.title, css: CSS, body, ctx });
}

function ticketsPage(st: CinemaState, ctx: AppContext, m: Movie, day: number, time: string): AppResponse {
  const show = m.showtimes.find((s) => s.time === time);
  if (!show || !onSale(st, m.id, day, time)) return { status: 303, redirect: `${ctx.base}/m/${m.id}?day=${day}` };
  const d = st.draft;
  const same = d.movieId === m.id && d.day === day && d.time === time;
  const start = same ? { adult: d.adult, child: d.child, senior: d.senior } : { adult: 1, child: 0, senior: 0 };
  const extra = FORMAT_CENTS[show.format] ?? 0;
  const rows = TICKET_TYPES.map(
    ([k, name, who, cents]) =>
      `<div class="tt" data-k="${k}"><div class="info"><div class="t">${esc(name)}</div><div class="s">${esc(who)} · ${money(cents + extra)}</div></div><div class="stepper"><button aria-label="Decrease ${esc(name)} tickets" onclick="chg('${k}',-1)">&minus;</button><span class="val" id="n-${k}">${start[k]}</span><button aria-label="Increase ${esc(name)} tickets" onclick="chg('${k}',1)">+</button></div></div>`,
  ).join('');
  const body = `${appbar('Select tickets', { back: true, menu: false })}
<div class="card"><div class="lbl">${esc(shortDay(day))} · ${esc(time)}</div><h2>${esc(m.title)}</h2><div class="d">${esc(show.format)} · Screen ${show.screen} · ${esc(m.rating)}</div></div>
<div class="section">How many tickets?</div>${rows}
<div class="intro">Up to ${MAX_TICKETS} tickets per order.${extra ? ` Prices include the ${esc(show.format)} surcharge.` : ''} A ${money(FEE_CENTS)} booking fee per ticket is added at checkout.${m.rating === 'R' ? ' Rated R: under 17 only with a parent or guardian.' : ''}</div>
<div class="error" id="err"></div>
<div class="spacer" style="height:150px"></div>
<div class="footer"><div class="sum" id="sum"></div><button class="primary" id="go" onclick="next()">Continue</button></div>`;
  const prices = Object.fromEntries(TICKET_TYPES.map(([k, , , c]) => [k, c + extra]));
  const script = `const N=${JSON.stringify(start)};const PR=${JSON.stringify(prices)};const MAX=${MAX_TICKETS};
const money=c=>'$'+(c/100).toFixed(2);
function draw(){let n=0,c=0;for(const k in N){n+=N[k];c+=N[k]*PR[k];document.getElementById('n-'+k).textContent=N[k]}
 document.getElementById('sum').textContent=n?n+' ticket'+(n===1?'':'s')+' · '+money(c):'Choose at least 1 ticket';document.getElementById('go').disabled=!n;
 for(const b of document.querySelectorAll('.tt')){const k=b.dataset.k;const [minus,plus]=b.querySelectorAll('.stepper button');minus.disabled=N[k]===0;plus.disabled=n>=MAX}}
function chg(k,d){const n=N.adult+N.child+N.senior;if(d>0&&n>=MAX)return;N[k]=Math.max(0,N[k]+d);document.getElementById('err').textContent='';draw()}
draw();
let busy=false;function next(){if(busy)return;busy=true;api('tickets',{movie:${JSON.stringify(m.id)},day:${day},time:${JSON.stringify(time)},adult:N.adult,child:N.child,senior:N.senior}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/buy/seats';return}document.getElementById('err').textContent=r.error||'Something went wrong'})}`;
  return renderPage({ title: 'Select tickets', css: CSS, body, ctx, script });
}

const draftReady = (st: CinemaState): boolean => {
  const d = st.draft;
  return !!movieOf(d.movieId) && onSale(st, d.movieId, d.day, d.time) && ticketCount(d) > 0 && ticketCount(d) <= MAX_TICKETS;
};

function seatsPage(st: CinemaState, ctx: AppContext): AppResponse {
  if (!draftReady(st)) return { status: 303, redirect: `${ctx.base}/` };
  const d = st.draft;
  const m = movieOf(d.movieId);
  const show = m?.showtimes.find((s) => s.time === d.time);
  const taken = takenSeats(st, d.movieId, d.day, d.time);
  const n = ticketCount(d);
  const map = ROWS.map((row) => {
    const seats = Array.from({ length: SEATS_PER_ROW }, (_, i) => {
      const id = `${row}${i + 1}`;
      const cls = taken.has(id) ? 'taken' : d.seats.includes(id) ? 'sel' : '';
      const seat = `<button class="seat ${cls}" data-s="${id}" aria-label="Seat ${id}${taken.has(id) ? ', taken' : ''}" ${taken.has(id) ? 'aria-disabled="true"' : `aria-pressed="${d.seats.includes(id)}"`} onclick="tog(this)">${i + 1}</button>`;
      return i === 5 ? `${seat}<span class="gap"></span>` : seat;
    }).join('');
    return `<div class="srow2"><span class="rl">${row}</span>${seats}<span class="rl">${row}</span></div>`;
  }).join('');
  const body = `${appbar('Seats', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#2d0f45">Choose your seats</b><br>${esc(m?.title ?? '')} · ${esc(shortDay(d.day))}, ${esc(d.time)} · Screen ${show?.screen ?? ''}</div>
<div class="intro" style="padding-top:4px">We picked the best seats available for ${esc(countLine(n))}${st.settings.seat === 'No preference' ? '' : `, going by your seat preference (${esc(st.settings.seat)})`}. Tap a seat to change.</div>
<div class="screen">SCREEN</div>
<div class="map" role="group" aria-label="Seat map">${map}</div>
<div class="legend"><span><i></i>Available</span><span><i class="sel"></i>Your seats</span><span><i class="taken"></i>Taken</span></div>
<div class="spacer" style="height:150px"></div>
<div class="footer"><div class="sum" id="sum"></div><button class="primary" id="go" onclick="next()">Continue</button></div>`;
  const script = `const N=${n};let S=${JSON.stringify(d.seats)};
function draw(){S.sort((a,b)=>a[0]<b[0]?-1:a[0]>b[0]?1:Number(a.slice(1))-Number(b.slice(1)));
 document.getElementById('sum').textContent=S.length===N?'Seats '+S.join(', '):'Pick '+(N-S.length)+' more seat'+(N-S.length===1?'':'s')+' ('+S.length+' of '+N+')';document.getElementById('go').disabled=S.length!==N}
function snack(t){let el=document.getElementById('snack');if(!el){el=document.createElement('div');el.id='snack';el.className='snack';el.setAttribute('role','status');document.body.appendChild(el)}el.textContent=t;el.hidden=false;clearTimeout(window.__sn);window.__sn=setTimeout(()=>{el.hidden=true},2500)}
function tog(el){if(el.classList.contains('taken'))return;const s=el.dataset.s;const i=S.indexOf(s);
 if(i>=0){S.splice(i,1);el.classList.remove('sel');el.setAttribute('aria-pressed','false')}
 else{if(S.length>=N){snack('You have '+N+' ticket'+(N===1?'':'s')+'. Tap one of your seats to free it first.');return}S.push(s);el.classList.add('sel');el.setAttribute('aria-pressed','true')}draw()}
draw();
let busy=false;function next(){if(busy||S.length!==N)return;busy=true;api('seats',{seats:S}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/buy/checkout';return}snack(r.error||'Those seats are no longer free')})}`;
  return renderPage({ title: 'Seats', css: CSS, body, ctx, script });
}

function checkoutPage(st: CinemaState, ctx: AppContext): AppResponse {
  const d = st.draft;
  if (!draftReady(st) || d.seats.length !== ticketCount(d)) return { status: 303, redirect: `${ctx.base}/${draftReady(st) ? 'buy/seats' : ''}` };
  const m = movieOf(d.movieId);
  const show = m?.showtimes.find((s) => s.time === d.time);
  const format = show?.format ?? 'Standard';
  const n = ticketCount(d);
  const total = totalCents(format, d);
  const extra = FORMAT_CENTS[format] ?? 0;
  const lines = TICKET_TYPES.filter(([k]) => d[k] > 0)
    .map(([k, name, , cents]) => `<div class="kv"><span class="k">${esc(name)} × ${d[k]}</span><span class="v">${money(cents * d[k])}</span></div>`)
    .join('');
  const walletOk = st.walletCents >= total;
  const body = `${appbar('Checkout', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#2d0f45">Review and pay</b></div>
<div class="card"><div class="lbl">${esc(format)} · Screen ${show?.screen ?? ''}</div><h2>${esc(m?.title ?? '')}</h2><div class="d">${esc(dayLabel(d.day))} at ${esc(d.time)}</div></div>
<div class="kv"><span class="k">Seats</span><span class="v">${esc(seatsLine(d.seats))}</span></div>
<div class="kv"><span class="k">Tickets</span><span class="v">${esc(ticketsLine(d))}</span></div>
<div class="section">Price</div>${lines}
${extra ? `<div class="kv"><span class="k">${esc(format)} × ${n}</span><span class="v">${money(extra * n)}</span></div>` : ''}
<div class="kv"><span class="k">Booking fee × ${n}</span><span class="v">${money(FEE_CENTS * n)}</span></div>
<div class="kv total"><span class="k">Total</span><span class="v">${money(total)}</span></div>
<div class="section">Payment method</div><div id="g-pay" role="radiogroup">
${radioRow('pay', 'card', CARD, 'Expires 08/27', true, 'pickPay')}
${radioRow('pay', 'wallet', WALLET, walletOk ? `Balance ${money(st.walletCents)}` : `Balance ${money(st.walletCents)} · not enough for this order`, false, 'pickPay', walletOk ? '' : ' disabled')}</div>
<div class="intro">Tickets can be cancelled up to 1 hour before the show, for a refund to your card or ${esc(WALLET)} credit.</div>
<div class="error" id="err"></div>
<button class="primary" id="pay" onclick="go()">Pay ${money(total)}</button><div class="spacer"></div>`;
  const script = `let PAY='card';
function pickPay(el){if(el.disabled)return;PAY=el.dataset.v;for(const o of document.querySelectorAll('#g-pay .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function go(){if(busy)return;busy=true;api('buy',{pay:PAY}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/b/'+r.id+'?toast=booked');return}document.getElementById('err').textContent=r.error||'Payment failed. Try again.'})}`;
  return renderPage({ title: 'Checkout', css: CSS, body, ctx, script });
}

function bookingRow(ctx: AppContext, b: Booking): string {
  const m = movieOf(b.movieId);
  const badge =
    b.status === 'cancelled'
      ? '<span class="badge red">Cancelled</span> '
      : b.status === 'watched'
        ? '<span class="badge grey">Watched</span> '
        : !b.refundable
          ? '<span class="badge warn">Reward ticket</span> '
          : '';
  return `<a class="bk${b.status === 'cancelled' ? ' off' : ''}" href="${ctx.base}/b/${b.id}" data-code="${b.code}">${poster(m, 'sm')}<div class="info"><div class="n">${esc(m?.title ?? '')}</div><div class="s">${esc(
    relDay(b.day),
  )} · ${esc(b.time)}</div><div class="s">${badge}${esc(countLine(ticketCount(b)))} · Screen ${b.screen} · ${esc(b.format)}</div></div><span class="go" style="font-size:24px;color:#a99bb6">&rsaquo;</span></a>`;
}

function myTicketsPage(st: CinemaState, ctx: AppContext, showPast: boolean): AppResponse {
  const up = upcoming(st);
  const seg = `<div class="seg2"><a class="${showPast ? '' : 'on'}" href="${ctx.base}/tickets">Upcoming (${up.length})</a><a class="${showPast ? 'on' : ''}" href="${ctx.base}/tickets/past">Past</a></div>`;
  const rows = showPast
    ? `<div class="section">Past and cancelled</div>${past(st)
        .map((b) => bookingRow(ctx, b))
        .join('')}`
    : `<div class="section">Your upcoming movies</div>${up.length ? up.map((b) => bookingRow(ctx, b)).join('') : '<div class="empty">No upcoming movies. Find one under Movies.</div>'}
<div class="intro">Need to change plans? Open a booking to cancel it, up to 1 hour before the show.</div>`;
  const body = `${appbar('My tickets')}${seg}${rows}<div class="spacer"></div>${bottomNav(ctx, 'tickets')}${menu(ctx)}`;
  return renderPage({ title: 'My tickets', css: CSS, body, ctx, root: true });
}

function bookingPage(ctx: AppContext, b: Booking, t: string): AppResponse {
  const m = movieOf(b.movieId);
  const top =
    t === 'booked' && b.status === 'upcoming'
      ? `<div class="card ok"><h2>You're all set</h2><div class="d">Show the code at the door. We emailed your tickets to ${esc(OWNER_EMAIL)}.</div></div>`
      : b.status === 'cancelled' && b.seq > 0
        ? `<div class="card gone"><h2>Tickets cancelled</h2><div class="d">${esc(refundLine(b))}.</div></div>`
        : '';
  const status =
    b.status === 'upcoming'
      ? `<span class="badge">Upcoming</span> ${esc(relDay(b.day))}, ${esc(b.time)}`
      : b.status === 'cancelled'
        ? `<span class="badge red">Cancelled</span> ${esc(refundLine(b))}`
        : `<span class="badge grey">Watched</span> ${esc(shortDay(b.day))}`;
  let action = '';
  let dialog = '';
  let script = '';
  if (b.status === 'upcoming' && b.refundable) {
    action = `<button class="outline danger" onclick="show('cancel')">Cancel booking</button>`;
    const opts = REFUNDS.map(([name, sub]) => radioRow('refund', name, name, `${money(b.cents)} · ${sub}`, name === 'Refund to card', 'pickRefund')).join('');
    dialog = `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel these tickets?"><h2>Cancel these tickets?</h2>
<p>${esc(countLine(ticketCount(b)))} for ${esc(m?.title ?? '')} on ${esc(dayLabel(b.day))} at ${esc(b.time)} will be cancelled and the seats released. How should we refund ${money(b.cents)}?</p>
<div id="g-refund" role="radiogroup">${opts}</div>
<div class="err" id="cerr"></div><div class="acts"><button onclick="hide('cancel')">Keep tickets</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Cancel tickets</button></div></div></div>`;
    script = `let R='Refund to card';
function pickRefund(el){R=el.dataset.v;for(const o of document.querySelectorAll('#g-refund .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doCancel(){if(busy)return;busy=true;api('cancel',{id:${b.id},refund:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/b/${b.id}?toast=cancelled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`;
  } else if (b.status === 'upcoming')
    action = `<div class="card note"><div class="d" style="margin:0">Tickets paid with a Rewards free ticket can't be cancelled or refunded.</div></div>`;
  else if (b.status === 'watched') action = `<div class="card note"><div class="d" style="margin:0">Hope you enjoyed the movie! You earned ${Math.floor(b.cents / 10)} points.</div></div>`;
  const body = `${appbar(m?.title ?? 'Booking', { back: true })}${top}
<div class="card"><div class="lbl">${esc(b.format)} · Screen ${b.screen}</div><h2>${esc(m?.title ?? '')}</h2><div class="d">${status}</div></div>
<div class="code"><div class="k">Booking code</div><div class="c">${esc(b.code)}</div>${b.status === 'upcoming' ? '<div class="bars" aria-hidden="true"></div>' : ''}</div>
<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(b.day))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v">${esc(b.time)}</span></div>
<div class="kv"><span class="k">Seats</span><span class="v">${esc(seatsLine(b.seats))}</span></div>
<div class="kv"><span class="k">Tickets</span><span class="v">${esc(ticketsLine(b))}</span></div>
<div class="kv"><span class="k">Total paid</span><span class="v">${money(b.cents)}</span></div>
<div class="kv"><span class="k">Paid with</span><span class="v">${esc(b.paidWith)}</span></div>
${action}
<div class="spacer"></div>${bottomNav(ctx, 'tickets')}${menu(ctx)}${dialog}${t === 'booked' && b.status === 'upcoming' ? toast('Tickets booked') : t === 'cancelled' && b.status === 'cancelled' ? toast('Tickets cancelled') : ''}`;
  return renderPage({ title: m?.title ?? 'Booking', css: CSS, body, ctx, script });
}

function walletPage(st: CinemaState, ctx: AppContext, t: string, newId: number): AppResponse {
  const added = t === 'added' ? st.giftCards.find((c) => c.id === newId) : undefined;
  const cards = st.giftCards
    .map(
      (c) =>
        `<div class="gc" data-last4="${last4(c.number)}"><div class="ic">GIFT</div><div class="info"><div class="t">${esc(c.name)}</div><div class="s">Gift card •••• ${last4(c.number)}</div></div><span class="p">${money(c.cents)}</span></div>`,
    )
    .join('');
  const body = `${appbar('Wallet')}
${added ? `<div class="card ok"><h2>Gift card added</h2><div class="d">${esc(added.name)} (•••• ${last4(added.number)}) has ${money(added.cents)} to spend.</div></div>` : ''}
<div class="card"><div class="lbl">${esc(WALLET)}</div><h2>${money(st.walletCents)}</h2><div class="d">Refunds you take as credit land here. Pay with it at checkout.</div></div>
<div class="section">Gift cards</div>${cards || '<div class="empty">No gift cards yet</div>'}
<a class="outline" href="${ctx.base}/wallet/add">+ Add gift card</a>
<div class="section">Payment methods</div>
<div class="srow"><div class="info"><div class="t">${esc(CARD)}</div><div class="s">Expires 08/27 · Default</div></div></div>
<div class="spacer"></div>${bottomNav(ctx, 'wallet')}${menu(ctx)}${added ? toast('Gift card added') : ''}`;
  return renderPage({ title: 'Wallet', css: CSS, body, ctx, root: true });
}

function addGiftCardPage(ctx: AppContext): AppResponse {
  const body = `${appbar('Add gift card', { back: true, menu: false })}
<div class="intro">Add a ReelPass gift card to pay for tickets and snacks. The PIN is under the silver strip on the back.</div>
<div class="field fl" id="f-number"><input id="number" type="text" inputmode="numeric" autocomplete="off" maxlength="23" placeholder="16 digits"><label for="number">Card number</label><div class="ferr" id="e-number"></div></div>
<div class="field fl" id="f-pin"><input id="pin" type="text" inputmode="numeric" autocomplete="off" maxlength="8" placeholder="4 digits"><label for="pin">PIN</label><div class="ferr" id="e-pin"></div></div>
<div class="field fl" id="f-name"><input id="name" type="text" autocomplete="off" maxlength="${NAME_MAX + 10}" placeholder="e.g. Anniversary"><label for="name">Card name (optional)</label><div class="hint">Helps you tell your cards apart</div><div class="ferr" id="e-name"></div></div>
<button class="primary" onclick="save()">Add to wallet</button><div class="spacer"></div>`;
  const script = `let busy=false;function save(){if(busy)return;for(const k of ['number','pin','name']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 const v=k=>document.getElementById(k).value;busy=true;api('giftcard',{number:v('number'),pin:v('pin'),name:v('name')}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/wallet?toast=added&id='+r.id);return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Add gift card', css: CSS, body, ctx, script });
}

const prefsLine = (s: Settings): string => `Seats: ${s.seat} · Reminder: ${s.reminder}`;

function accountPage(st: CinemaState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Account')}
<div class="srow"><div class="av">${esc(OWNER.split(' ').map((w) => w[0] ?? '').join(''))}</div><div class="info"><div class="t">${esc(OWNER)}</div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="card promo"><div class="lbl">ReelPass Rewards</div><h2>${st.points.toLocaleString('en-US')} points</h2><div class="d">Member since 2021 · Gold tier</div></div>
<div class="section">Your account</div>
<a class="srow" href="${ctx.base}/account/preferences"><div class="info"><div class="t">Preferences</div><div class="s">${esc(prefsLine(st.settings))}</div></div><span class="go">&rsaquo;</span></a>
<a class="srow" href="${ctx.base}/wallet"><div class="info"><div class="t">Wallet and gift cards</div><div class="s">${money(st.walletCents)} credit · ${st.giftCards.length} gift cards</div></div><span class="go">&rsaquo;</span></a>
${row('Home cinema', `${CINEMA}, ${CINEMA_ADDRESS}`)}
<div class="section">More</div>
${row('Help and support', 'Chat with us, 10 AM–11 PM')}
${row('Privacy', 'Your data and choices')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function prefsPage(st: CinemaState, ctx: AppContext): AppResponse {
  const s = st.settings;
  const sw = (key: keyof Settings, title: string, sub: string): string =>
    `<button class="srow" role="switch" aria-checked="${s[key] === true}" data-k="${key}" onclick="flip(this)"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(sub)}</div></div><span class="switch${s[key] === true ? ' on' : ''}"></span></button>`;
  const body = `${appbar('Preferences', { back: true, menu: false })}
<div class="intro">Changes are saved as you make them.</div>
<div class="section">Seats</div>
<button class="srow" id="r-seat" onclick="show('seatdlg')"><div class="info"><div class="t">Seat preference</div><div class="s" id="v-seat">${esc(s.seat)}</div></div><span class="go">&rsaquo;</span></button>
<div class="section">Reminders</div>
<button class="srow" id="r-reminder" onclick="show('remdlg')"><div class="info"><div class="t">Showtime reminder</div><div class="s" id="v-reminder">${esc(s.reminder)}</div></div><span class="go">&rsaquo;</span></button>
<div class="section">Notifications</div>
${sw('textTickets', 'Text me my tickets', 'A link to your tickets by text, sent to (503) 555-0142')}
${sw('emailReceipts', 'Email receipts', `Sent to ${OWNER_EMAIL}`)}
${sw('offers', 'Offers and news', 'New releases, member deals and events')}
<div class="spacer"></div>
${optionDialog('seatdlg', 'Seat preference', SEAT_PREFS.map(([v, sub]) => ({ v, s: sub })), s.seat, 'pickSeat')}
${optionDialog('remdlg', 'Showtime reminder', REMINDERS.map((v) => ({ v, s: '' })), s.reminder, 'pickReminder')}`;
  const script = `const P=${JSON.stringify(s)};
function snack(t){let el=document.getElementById('snack');if(!el){el=document.createElement('div');el.id='snack';el.className='snack';el.setAttribute('role','status');document.body.appendChild(el)}el.textContent=t;el.hidden=false;clearTimeout(window.__sn);window.__sn=setTimeout(()=>{el.hidden=true},2500)}
function save(k,v,label){return api('setting',{key:k,value:v}).then(r=>{if(r.ok){P[k]=v;snack(label+' saved');return true}snack(r.error||'Could not save');return false})}
function pickIn(dlg,el){for(const o of document.querySelectorAll('#'+dlg+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(dlg)}
function pickSeat(el){const v=el.dataset.v;pickIn('seatdlg',el);save('seat',v,'Seat preference').then(ok=>{if(ok)document.getElementById('v-seat').textContent=v})}
function pickReminder(el){const v=el.dataset.v;pickIn('remdlg',el);save('reminder',v,'Showtime reminder').then(ok=>{if(ok)document.getElementById('v-reminder').textContent=v})}
function flip(el){const k=el.dataset.k;const v=!P[k];save(k,v,el.querySelector('.t').textContent).then(ok=>{if(!ok)return;el.setAttribute('aria-checked',String(v));el.querySelector('.switch').classList.toggle('on',v)})}`;
  return renderPage({ title: 'Preferences', css: CSS, body, ctx, script });
}

const intIn = (v: unknown, lo: number, hi: number): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : undefined);

function handleApi(st: CinemaState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'tickets': {
      const movieId = str(b.movie);
      const day = Number(b.day);
      const time = str(b.time);
      const counts = { adult: intIn(b.adult, 0, MAX_TICKETS), child: intIn(b.child, 0, MAX_TICKETS), senior: intIn(b.senior, 0, MAX_TICKETS) };
      if (!onSale(st, movieId, day, time)) return json({ ok: false, error: 'This showtime is no longer available. Pick another one.' }, 409);
      if (counts.adult === undefined || counts.child === undefined || counts.senior === undefined) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const t = { adult: counts.adult, child: counts.child, senior: counts.senior };
      const n = ticketCount(t);
      if (n === 0) return json({ ok: false, error: 'Choose at least 1 ticket' });
      if (n > MAX_TICKETS) return json({ ok: false, error: `Up to ${MAX_TICKETS} tickets per order` });
      const d = st.draft;
      const taken = takenSeats(st, movieId, day, time);
      const keep = d.movieId === movieId && d.day === day && d.time === time && d.seats.length === n && d.seats.every((x) => !taken.has(x));
      st.draft = { movieId, day, time, ...t, seats: keep ? d.seats : bestSeats(taken, n, st.settings.seat) };
      return json({ ok: true });
    }
    case 'seats': {
      const seats = Array.isArray(b.seats) ? b.seats.map((x) => str(x)) : [];
      if (!draftReady(st)) return json({ ok: false, error: 'Start again from the movie' }, 409);
      const d = st.draft;
      const taken = takenSeats(st, d.movieId, d.day, d.time);
      const valid = (x: string): boolean => /^[A-H]([1-9]|1[0-2])$/.test(x) && !taken.has(x);
      if (seats.length !== ticketCount(d) || new Set(seats).size !== seats.length || !seats.every(valid)) return json({ ok: false, error: 'Those seats are no longer free' }, 409);
      d.seats = seats;
      return json({ ok: true });
    }
    case 'buy': {
      const d = st.draft;
      if (!draftReady(st) || d.seats.length !== ticketCount(d)) return json({ ok: false, error: 'This showtime is no longer available. Start again.' }, 409);
      const taken = takenSeats(st, d.movieId, d.day, d.time);
      if (d.seats.some((x) => taken.has(x))) return json({ ok: false, error: 'Some of your seats were just taken. Go back and pick others.' }, 409);
      const show = movieOf(d.movieId)?.showtimes.find((s) => s.time === d.time);
      const format = show?.format ?? 'Standard';
      const cents = totalCents(format, d);
      const pay = str(b.pay) === 'wallet' ? 'wallet' : 'card';
      if (pay === 'wallet' && st.walletCents < cents) return json({ ok: false, error: `Your ${WALLET} balance is not enough for this order` });
      if (pay === 'wallet') st.walletCents -= cents;
      const id = 601 + st.bookings.filter((x) => !x.seeded).length;
      const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
      let h = (st.seed * 7919 + id * 104729 + st.seq) >>> 0;
      let code = 'RP-';
      for (let i = 0; i < 5; i++) {
        code += alphabet[h % alphabet.length];
        h = Math.floor(h / alphabet.length) + i * 131;
      }
      st.bookings.push({
        id,
        code,
        movieId: d.movieId,
        day: d.day,
        time: d.time,
        format,
        screen: show?.screen ?? 1,
        seats: [...d.seats],
        adult: d.adult,
        child: d.child,
        senior: d.senior,
        cents,
        paidWith: pay === 'wallet' ? WALLET : CARD,
        status: 'upcoming',
        refundable: true,
        refund: '',
        seeded: false,
        seq: st.seq,
      });
      st.points += Math.floor(cents / 10);
      st.draft = emptyDraft();
      return json({ ok: true, id });
    }
    case 'cancel': {
      const bk = bookingOf(st, Number(b.id));
      const refund = str(b.refund);
      if (!bk || bk.status !== 'upcoming' || !bk.refundable) return json({ ok: false, error: 'This booking can no longer be cancelled' }, 409);
      if (!REFUND_NAMES.includes(refund)) return json({ ok: false, error: 'Choose how to get your money back' }, 400);
      bk.status = 'cancelled';
      bk.refund = refund;
      bk.seq = st.seq;
      if (refund === 'Wallet credit') st.walletCents += bk.cents;
      return json({ ok: true });
    }
    case 'setting': {
      const key = str(b.key);
      const v = b.value;
      const s = st.settings;
      if (key === 'seat' && typeof v === 'string' && SEAT_PREF_NAMES.includes(v)) s.seat = v;
      else if (key === 'reminder' && typeof v === 'string' && REMINDERS.includes(v)) s.reminder = v;
      else if ((key === 'textTickets' || key === 'emailReceipts' || key === 'offers') && typeof v === 'boolean') s[key] = v;
      else return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      st.settingsChanges += 1;
      return json({ ok: true });
    }
    case 'giftcard': {
      const d = { number: str(b.number), pin: str(b.pin), name: str(b.name) };
      const errors = giftCardErrors(st.giftCards, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 41 + st.giftCards.filter((c) => c.added).length;
      const number = digitsOf(d.number);
      st.giftCards.push({ id, number, name: cleanText(d.name) || 'Gift card', cents: giftBalance(number), added: true, seq: st.seq });
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleCinema(st: CinemaState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'm' && arg) {
    const m = movieOf(arg);
    return m ? moviePage(st, ctx, m, Number(req.query.get('day') ?? 0)) : notFound(CSS);
  }
  if (head === 'buy' && arg === 'tickets') {
    const m = movieOf(req.query.get('m') ?? '');
    return m ? ticketsPage(st, ctx, m, Number(req.query.get('day') ?? -1), req.query.get('time') ?? '') : notFound(CSS);
  }
  if (head === 'buy' && arg === 'seats') return seatsPage(st, ctx);
  if (head === 'buy' && arg === 'checkout') return checkoutPage(st, ctx);
  if (head === 'tickets') return myTicketsPage(st, ctx, arg === 'past');
  if (head === 'b' && arg) {
    const bk = bookingOf(st, Number(arg));
    return bk ? bookingPage(ctx, bk, t) : notFound(CSS);
  }
  if (head === 'wallet' && arg === undefined) return walletPage(st, ctx, t, Number(req.query.get('id') ?? 0));
  if (head === 'wallet' && arg === 'add') return addGiftCardPage(ctx);
  if (head === 'account' && arg === undefined) return accountPage(st, ctx);
  if (head === 'account' && arg === 'preferences') return prefsPage(st, ctx);
  return notFound(CSS);
}

