import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, tabBar, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  BEFORE_OPTIONS,
  canCancel,
  canExtend,
  canReport,
  CANCEL_REASONS,
  CAR_TYPES,
  CARD,
  carOf,
  conflict,
  DAMAGE_AREAS,
  dayLabel,
  dayOf,
  dayOfMonth,
  driverErrors,
  DURATIONS,
  emptyDraft,
  emptyDriver,
  endOf,
  EXTRAS,
  HOME_ADDRESS,
  hoursLabel,
  isActive,
  isPast,
  isUpcoming,
  levelText,
  liveDrivers,
  MAX_DRIVERS,
  memberBlocks,
  money,
  NOTE_MAX,
  NOTE_MIN,
  NOW,
  placeOf,
  PROTECTIONS,
  protectionCents,
  RELATIONS,
  reserveErrors,
  resOf,
  shortDay,
  spanLabel,
  START_HOURS,
  STRIP_DAYS,
  timeCents,
  timeLabel,
  tripCents,
  TYPE_NAMES,
  USER,
  USER_EMAIL,
  USER_PHONE,
  whenLabel,
  whenShort,
  weekdayOf,
  type Car,
  type CarshareState,
  type Place,
  type Reservation,
} from './state.js';

const ACCENT = '#3b5bdb';
const SOFT = '#dbe4ff';
const WARM = '#e67700';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f5fa}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:64px;display:flex;background:#fff;border-top:1px solid #d9deea}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:3px;font-size:13px;font-weight:bold;color:#5c6475}
.bnav a .g{font-size:21px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:104px}
.where{padding:12px 16px 0;font-size:15px;color:#4f5869}
.where b{color:#1b2233}
.ask{padding:6px 16px 2px;font-size:26px;font-weight:bold;color:#141b2d}
.find{display:flex;margin:10px 12px 6px;border:2px solid #bcc5da;border-radius:14px;background:#fff;overflow:hidden}
.find input{flex:1;height:52px;border:none;padding:0 14px;font-size:17px;outline:none;background:#fff}
.find button{padding:0 18px;font-size:16px;font-weight:bold;color:#fff;background:${ACCENT}}
.types{display:grid;grid-template-columns:repeat(5,1fr);gap:8px;padding:4px 12px 8px}
.type{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;height:78px;background:#fff;border-radius:14px;border:1px solid #d9deea;font-size:14px;font-weight:bold;color:#1b2233;text-align:center}
.type .e{font-size:26px;line-height:28px}
.tile{display:block;margin:10px 12px;padding:16px;background:#fff;border-radius:14px;border-left:6px solid ${ACCENT};box-shadow:0 1px 3px rgba(0,0,0,.08)}
.tile .k{font-size:13px;font-weight:bold;letter-spacing:.5px;text-transform:uppercase;color:${ACCENT}}
.tile .h{font-size:19px;font-weight:bold;margin-top:4px;color:#141b2d}
.tile .b{font-size:15px;color:#4f5869;margin-top:3px}
.tile.live{border-left-color:#2f9e44}
.tile.live .k{color:#2f9e44}
.tile.promo{background:#141b2d;border-left-color:#ffd43b}
.tile.promo .k{color:#ffd43b}.tile.promo .h{color:#fff}.tile.promo .b{color:#c9d1e6}
.banner{margin:12px;padding:14px 16px;border-radius:12px;font-size:16px}
.banner h2{margin:0 0 4px;font-size:20px}
.banner.good{background:#d3f9d8;color:#1b4d2a}
.banner.info{background:#e7f5ff;color:#1c4466}
.banner.stop{background:#fff0f0;color:#7a1f1f}
.banner.warn{background:#fff4e6;color:#7a3b0b}
.sub{padding:10px 16px 6px;font-size:15px;color:#4f5869}
.place{display:flex;gap:14px;align-items:center;min-height:84px;padding:12px 16px;background:#fff;border-bottom:1px solid #e4e8f1}
.place .pin{width:46px;height:46px;border-radius:23px;flex:none;display:flex;align-items:center;justify-content:center;background:${SOFT};color:${ACCENT};font-size:22px}
.place .info,.car .info,.trow .info{flex:1;min-width:0}
.place .n,.car .n,.trow .n{font-size:18px;font-weight:bold;color:#141b2d}
.place .s,.car .s,.trow .s{font-size:15px;color:#4f5869;margin-top:2px}
.chev{font-size:24px;color:#9aa3b5}
.car{display:flex;gap:14px;align-items:center;min-height:98px;padding:12px 16px;background:#fff;border-bottom:1px solid #e4e8f1}
.car .st{font-size:14px;font-weight:bold;color:#2f9e44;margin-top:3px}
.car .st.busy{color:${WARM}}
.car .st.no{color:#c92a2a}
.car.off .n{color:#8a93a5}
.glyph{width:54px;height:54px;border-radius:14px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:26px}
.head{display:flex;gap:14px;align-items:center;padding:16px;background:#fff}
.head h2{margin:0;font-size:22px;color:#141b2d}
.head .s{font-size:15px;color:#4f5869;margin-top:3px}
.badges{display:flex;flex-wrap:wrap;gap:6px;padding:0 16px 14px;background:#fff}
.pill{display:inline-block;padding:3px 10px;border-radius:12px;font-size:13px;font-weight:bold;background:#e7ebf5;color:#2c3a5e}
.pill.ok{background:#d3f9d8;color:#2b8a3e}
.pill.now{background:#fff3bf;color:#8a5a00}
.pill.grey{background:#eceff1;color:#6b7780}
.pill.warn{background:#ffe8cc;color:#a8400a}
.facts{background:#fff;padding:4px 16px 12px;font-size:15px;color:#39425a}
.facts div{padding:4px 0}
.kv{display:flex;justify-content:space-between;gap:16px;padding:13px 16px;background:#fff;border-bottom:1px solid #e4e8f1;font-size:16px}
.kv .k{color:#4f5869;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total{font-size:18px}
.para{padding:12px 16px;background:#fff;font-size:15px;color:#39425a}
.feat{display:flex;flex-wrap:wrap;gap:6px;padding:10px 16px;background:#fff}
.rev{padding:12px 16px;background:#fff;border-bottom:1px solid #e4e8f1}
.rev .a{font-size:15px;font-weight:bold}
.rev .t{font-size:15px;color:#39425a;margin-top:4px}
.line{display:block;margin:12px;height:52px;border-radius:12px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.line.red{border-color:#c92a2a;color:#c92a2a}
.primary{border-radius:12px}
.steps{padding:12px 16px 0;font-size:14px;font-weight:bold;color:#5c6475;text-transform:uppercase;letter-spacing:.4px}
.q{padding:6px 16px 8px;font-size:22px;font-weight:bold;color:#141b2d}
.strip{display:grid;grid-template-columns:repeat(7,1fr);gap:6px;margin:6px 12px;padding:10px;background:#fff;border-radius:14px;border:1px solid #d9deea}
.dd{display:flex;flex-direction:column;align-items:center;justify-content:center;height:58px;border-radius:10px;background:#f3f5fa;color:#141b2d}
.dd .w{font-size:12px;font-weight:bold;color:#6b7385}
.dd .n{font-size:18px;font-weight:bold}
.dd.on{background:${ACCENT};color:#fff}
.dd.on .w{color:#dbe4ff}
.times{background:#fff}
.tm{display:flex;justify-content:space-between;align-items:center;width:100%;height:54px;padding:0 16px;border-bottom:1px solid #e4e8f1;font-size:17px;font-weight:bold;text-align:left}
.tm .st{font-size:14px;font-weight:normal;color:#4f5869}
.tm.sel{background:${SOFT};color:#1c2f7a}
.tm.full{color:#a9b0bf}
.tm.full .st{color:#a9b0bf}
.durs{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;padding:8px 12px;background:#fff}
.dur{min-height:56px;border:2px solid #cfd4e0;border-radius:12px;font-size:16px;font-weight:bold;background:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center}
.dur small{font-size:12px;font-weight:normal;color:#4f5869}
.dur.sel{border-color:${ACCENT};background:${SOFT};color:#1c2f7a}
.sum{padding:12px 16px;font-size:16px;font-weight:bold;color:#1c2f7a;min-height:22px}
.choice{display:flex;align-items:center;gap:14px;width:100%;min-height:64px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4e8f1;text-align:left}
.choice .info{flex:1}
.choice .t{font-size:17px;font-weight:bold}
.choice .s{font-size:14px;color:#4f5869;margin-top:2px}
.choice .box{width:24px;height:24px;border-radius:12px;border:2px solid #8a93a5;flex:none}
.choice.sel{background:#f0f3ff}
.choice.sel .box{border:8px solid ${ACCENT}}
.choice.dim{opacity:.5}
.field .choice{padding:10px 4px;min-height:52px}
.field textarea{width:100%;height:120px;border:2px solid #cfd4e0;border-radius:10px;padding:10px 14px;font:inherit;font-size:17px;outline:none;resize:none}
.field.bad input,.field.bad textarea,.field.bad .ptiles{border-color:#c92a2a}
.field.bad .ptiles{outline:2px solid #c92a2a;border-radius:12px}
.field .hint{font-size:14px;color:#4f5869;margin-top:6px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.ptiles{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.ptile{min-height:52px;padding:6px 10px;border:2px solid #cfd4e0;border-radius:12px;font-size:16px;font-weight:bold;background:#fff;text-align:left}
.ptile.sel{border-color:${ACCENT};background:${SOFT};color:#1c2f7a}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.chip.sel{border-color:${ACCENT};background:${SOFT};color:#1c2f7a}
.dialog .choice{padding:10px 2px;min-height:50px;border-bottom:1px solid #f1f3f5}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
.tabs{display:flex;background:#fff;border-bottom:1px solid #d9deea}
.tabs a{flex:1;text-align:center;padding:14px 0 12px;font-size:16px;font-weight:bold;color:#5c6475;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.dayhdr{padding:14px 16px 6px;font-size:14px;font-weight:bold;color:#5c6475;text-transform:uppercase;letter-spacing:.4px}
.trow{display:flex;gap:14px;align-items:center;min-height:88px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4e8f1}
.trow.gone .n{color:#8a93a5}
.locks{display:flex;gap:10px;padding:10px 12px;background:#fff}
.locks button{flex:1;height:56px;border-radius:12px;border:2px solid #cfd4e0;font-size:17px;font-weight:bold;background:#fff}
.locks button.on{border-color:${ACCENT};background:${SOFT};color:#1c2f7a}
.drv{display:flex;gap:14px;align-items:center;min-height:72px;padding:10px 16px;background:#fff;border-bottom:1px solid #e4e8f1}
.drv .info{flex:1;min-width:0}
.drv .t{font-size:17px;font-weight:bold}
.drv .s{font-size:14px;color:#4f5869;margin-top:2px}
.drv .rm{font-size:15px;font-weight:bold;color:#c92a2a;padding:8px}
.credit{margin:12px;padding:18px;border-radius:14px;background:${ACCENT};color:#fff}
.credit .k{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:#dbe4ff}
.credit .h{font-size:30px;font-weight:bold;margin-top:4px}
.credit .b{font-size:15px;color:#dbe4ff;margin-top:4px}
`;

type Tab = 'find' | 'trips' | 'wallet' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'find', label: 'Find', glyph: '&#128269;', href: `${ctx.base}/` },
      { id: 'trips', label: 'Trips', glyph: '&#128197;', href: `${ctx.base}/trips` },
      { id: 'wallet', label: 'Wallet', glyph: '&#128179;', href: `${ctx.base}/wallet` },
      { id: 'account', label: 'Account', glyph: '&#128100;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Past trips', `${ctx.base}/trips/past`],
    ['Drivers', `${ctx.base}/account`],
    ['Help', `${ctx.base}/account`],
  ]);

const TYPE_COLORS: Record<string, string> = { Compact: '#e8590c', Sedan: '#1864ab', SUV: '#2b8a3e', Electric: '#0b7285', Van: '#5f3dc4' };
const typeGlyph = (type: string): string => CAR_TYPES.find(([t]) => t === type)?.[1] ?? '&#128663;';
const glyph = (c: Car, size = 54): string =>
  `<div class="glyph" style="background:${TYPE_COLORS[c.type] ?? ACCENT};width:${size}px;height:${size}px" aria-hidden="true">${typeGlyph(c.type)}</div>`;
const slug = (s: string): string => s.toLowerCase().replace(/[^a-z]+/g, '-');
const perHour = (c: Car): string => `${money(c.rateCents)}/hr`;
const dayName = (d: number): string => (d === 0 ? 'Today' : d === 1 ? 'Tomorrow' : dayLabel(d));
const placeName = (st: CarshareState, c: Car | undefined): string => (c ? (placeOf(st, c.placeId)?.name ?? '') : '');
const modelOf = (st: CarshareState, r: Reservation): string => carOf(st, r.carId)?.model ?? '';
const closest = (st: CarshareState, cars: readonly Car[]): Car[] =>
  [...cars].sort((a, b) => (placeOf(st, a.placeId)?.walk ?? 0) - (placeOf(st, b.placeId)?.walk ?? 0) || st.order.indexOf(a.id) - st.order.indexOf(b.id));

/** What a car is doing right now: out of service, on the member's trip, in use by someone else, or free (until when). */
function statusOf(st: CarshareState, c: Car): { text: string; cls: string } {
  if (!c.inService) return { text: 'Out of service', cls: 'no' };
  const now = conflict(st, c.id, NOW, NOW + 0.01);
  if (now?.by === 'you') return { text: `On your trip until ${timeLabel(endOf(now.res))}`, cls: 'busy' };
  if (now?.by === 'member') return { text: `In use until ${timeLabel(now.block.end)}`, cls: 'busy' };
  const later = conflict(st, c.id, NOW, 24);
  if (later?.by === 'member') return { text: `Available until ${timeLabel(later.block.start)}`, cls: '' };
  if (later?.by === 'you') return { text: `Available until ${timeLabel(later.res.start)}`, cls: '' };
  return { text: 'Available now', cls: '' };
}

function carRow(st: CarshareState, ctx: AppContext, c: Car): string {
  const s = statusOf(st, c);
  const p = placeOf(st, c.placeId);
  return `<a class="car${c.inService ? '' : ' off'}" href="${ctx.base}/c/${c.id}" data-car="${esc(c.model)}">${glyph(c)}<div class="info"><div class="n">${esc(c.model)}</div><div class="s">${esc(c.type)} · ${c.seats} seats · ${esc(perHour(c))}</div><div class="s">${esc(
    p?.name ?? '',
  )} · ${p?.walk ?? 0} min walk</div><div class="st ${s.cls}">${esc(s.text)}</div></div><span class="chev">&rsaquo;</span></a>`;
}

function placeRow(st: CarshareState, ctx: AppContext, p: Place): string {
  const here = st.cars.filter((c) => c.placeId === p.id);
  const free = here.filter((c) => c.inService && !conflict(st, c.id, NOW, NOW + 0.01)).length;
  return `<a class="place" href="${ctx.base}/l/${p.id}" data-place="${esc(p.name)}"><div class="pin" aria-hidden="true">&#128205;</div><div class="info"><div class="n">${esc(p.name)}</div><div class="s">${esc(p.address)} · ${esc(p.area)}</div><div class="s">${p.walk} min walk · ${free} of ${here.length} car${here.length === 1 ? '' : 's'} free now</div></div><span class="chev">&rsaquo;</span></a>`;
}

function homePage(st: CarshareState, ctx: AppContext): AppResponse {
  const active = st.reservations.find(isActive);
  const next = st.reservations.filter(isUpcoming).sort((a, b) => a.start - b.start)[0];
  const types = CAR_TYPES.map(([t, e]) => `<a class="type" href="${ctx.base}/type/${slug(t)}"><span class="e" aria-hidden="true">${e}</span>${esc(t)}</a>`).join('');
  const places = [...st.places].sort((a, b) => a.walk - b.walk || a.id - b.id);
  const body = `${appbar('Wheelnook')}
<div class="where">Cars near <b>Home · ${esc(HOME_ADDRESS)}</b></div>
<div class="ask">Need a car?</div>
<form class="find" method="get" action="${ctx.base}/search"><input id="q" name="q" type="search" autocomplete="off" placeholder="Search a car or a location"><button type="submit">Search</button></form>
${
  active
    ? `<a class="tile live" href="${ctx.base}/t/${active.id}"><div class="k">On a trip now</div><div class="h">${esc(modelOf(st, active))}</div><div class="b">Return by ${esc(timeLabel(endOf(active)))} to ${esc(placeName(st, carOf(st, active.carId)))}</div></a>`
    : ''
}
${
  next
    ? `<a class="tile" href="${ctx.base}/t/${next.id}"><div class="k">Next trip</div><div class="h">${esc(modelOf(st, next))}</div><div class="b">${esc(dayName(dayOf(next.start)))}, ${esc(spanLabel(next))} · ${esc(placeName(st, carOf(st, next.carId)))}</div></a>`
    : ''
}
<div class="section">Browse by type</div>
<div class="types">${types}</div>
<div class="section">Locations near you</div>
${places.map((p) => placeRow(st, ctx, p)).join('')}
<a class="tile promo" href="${ctx.base}/wallet"><div class="k">Invite friends</div><div class="h">Give $25, get $25</div><div class="b">Driving credit for you both after their first trip.</div></a>
<div class="spacer"></div>${bottomNav(ctx, 'find')}${menu(ctx)}`;
  return renderPage({ title: 'Wheelnook', css: CSS, body, ctx, root: true });
}

function carsPage(st: CarshareState, ctx: AppContext, title: string, cars: Car[], note: string): AppResponse {
  const body = `${appbar(title, { back: true })}
<div class="sub">${esc(note)} · Closest first</div>
${closest(st, cars).map((c) => carRow(st, ctx, c)).join('') || '<div class="empty">No cars match. Try a model like “Corolla”, a type like “SUV” or a location.</div>'}
<div class="sub">Every trip includes gas or charging, insurance and 180 miles a day.</div>
<div class="spacer"></div>${bottomNav(ctx, 'find')}${menu(ctx)}`;
  return renderPage({ title, css: CSS, body, ctx });
}

function placePage(st: CarshareState, ctx: AppContext, p: Place): AppResponse {
  const cars = st.order.map((id) => carOf(st, id)).filter((c): c is Car => !!c && c.placeId === p.id);
  const body = `${appbar('Location', { back: true })}
<div class="head"><div class="glyph" style="background:${ACCENT}" aria-hidden="true">&#128205;</div><div><h2>${esc(p.name)}</h2><div class="s">${esc(p.address)} · ${esc(p.area)}</div><div class="s">${p.walk} min walk from home</div></div></div>
<div class="facts"><div><b>Finding the cars:</b> ${esc(p.access)}</div><div><b>Open:</b> 24 hours</div></div>
<div class="section">Cars at this location</div>
${cars.map((c) => carRow(st, ctx, c)).join('')}
<div class="sub">Return the car to this location. Parking elsewhere costs a $50 relocation fee.</div>
<div class="spacer"></div>${bottomNav(ctx, 'find')}${menu(ctx)}`;
  return renderPage({ title: p.name, css: CSS, body, ctx });
}

function carPage(st: CarshareState, ctx: AppContext, c: Car): AppResponse {
  const p = placeOf(st, c.placeId)!;
  const s = statusOf(st, c);
  const taken = memberBlocks(c.model)
    .filter((b) => b.end > NOW && b.start < 4 * 24)
    .slice(0, 5)
    .map((b) => `<div class="kv"><span class="k">${esc(shortDay(dayOf(b.start)))}</span><span class="v">${esc(timeLabel(b.start))}–${esc(timeLabel(b.end))}</span></div>`)
    .join('');
  const action = c.inService
    ? `<a class="primary" id="reserve" href="${ctx.base}/c/${c.id}/reserve">Reserve</a>`
    : `<div class="banner warn"><h2>Out of service</h2>${esc(c.serviceNote)} Try another car at ${esc(p.name)}.</div>`;
  const body = `${appbar('Car details', { back: true })}
<div class="head">${glyph(c, 64)}<div><h2>${esc(c.model)}</h2><div class="s">${c.year} · ${esc(c.color)} · Plate ${esc(c.plate)}</div><div class="s">${c.trips} trips</div></div></div>
<div class="badges"><span class="pill">${esc(c.type)}</span><span class="pill">${c.seats} seats</span><span class="pill">${c.electric ? 'Electric' : 'Gas'}</span><span class="pill ${s.cls === 'no' ? 'warn' : s.cls === 'busy' ? 'now' : 'ok'}">${esc(s.text)}</span></div>
<div class="facts"><div><b>Location:</b> <a href="${ctx.base}/l/${p.id}" style="color:${ACCENT};font-weight:bold">${esc(p.name)}</a>, ${esc(p.address)}</div><div><b>Find it:</b> ${esc(p.access)}</div><div><b>${c.electric ? 'Charge' : 'Fuel'}:</b> ${esc(levelText(c))}</div></div>
${action}
<div class="section">Rates</div>
<div class="kv"><span class="k">Per hour</span><span class="v">${esc(money(c.rateCents))}</span></div>
<div class="kv"><span class="k">Per day</span><span class="v">${esc(money(c.dayCents))}</span></div>
<div class="sub">Gas or charging, insurance and 180 miles a day are included. Extra miles are $0.45 each.</div>
<div class="section">Features</div><div class="feat">${c.features.map((f) => `<span class="pill">${esc(f)}</span>`).join('')}</div>
<div class="section">Booked by other members</div>${taken || '<div class="para">Free for the next few days.</div>'}
<div class="section">What members say</div>${c.notes.map(([a, t]) => `<div class="rev"><div class="a">${esc(a)}</div><div class="t">${esc(t)}</div></div>`).join('')}
<div class="section">Rules</div><div class="para">No smoking. Pets only in a carrier or with a seat cover. Return with at least ${c.electric ? '20% charge' : 'a quarter tank'}, and leave the key card in the visor.</div>
<div class="spacer"></div>${bottomNav(ctx, 'find')}${menu(ctx)}`;
  return renderPage({ title: c.model, css: CSS, body, ctx });
}

/** Reserve, step 1 of 2: the day (a two-week strip), the start time (hourly, for the tapped day) and how long. */
function reserveTimePage(st: CarshareState, ctx: AppContext, c: Car): AppResponse {
  const d = st.draft.carId === c.id ? st.draft : emptyDraft();
  const strip = STRIP_DAYS.map(
    (x) =>
      `<button class="dd${x === d.day ? ' on' : ''}" data-day="${x}" aria-label="${esc(dayLabel(x))}" aria-pressed="${x === d.day}" onclick="pickDay(this)"><span class="w">${x === 0 ? 'Today' : esc(weekdayOf(x).slice(0, 3))}</span><span class="n">${dayOfMonth(x)}</span></button>`,
  ).join('');
  const lists = STRIP_DAYS.map((x) => {
    const rows = START_HOURS.filter((h) => x > 0 || h > NOW)
      .map((h) => {
        const t = x * 24 + h;
        if (conflict(st, c.id, t, t + 0.5))
          return `<div class="tm full" aria-disabled="true" aria-label="${esc(timeLabel(h))}, booked"><span>${esc(timeLabel(h))}</span><span class="st">Booked</span></div>`;
        const on = x === d.day && h === d.time;
        return `<button class="tm${on ? ' sel' : ''}" data-day="${x}" data-t="${h}" aria-pressed="${on}" onclick="pickTime(this)"><span>${esc(timeLabel(h))}</span><span class="st">${on ? 'Selected' : 'Available'}</span></button>`;
      })
      .join('');
    return `<div class="times" data-for="${x}"${x === d.day ? '' : ' hidden'}>${rows}</div>`;
  }).join('');
  const durs = DURATIONS.map(
    (h) => `<button class="dur${h === d.hours ? ' sel' : ''}" data-h="${h}" aria-pressed="${h === d.hours}" onclick="pickDur(this)">${esc(hoursLabel(h))}<small>${esc(money(timeCents(c, h)))}</small></button>`,
  ).join('');
  const labels = Object.fromEntries(STRIP_DAYS.map((x) => [x, shortDay(x)]));
  const body = `${appbar('Reserve', { back: true, menu: false })}
<div class="steps">Step 1 of 2 · Time</div>
<div class="q">When do you need it?</div>
<div class="sub" style="padding-top:0">${esc(c.model)} · ${esc(placeName(st, c))} · ${esc(perHour(c))}</div>
<div class="strip">${strip}</div>
<div class="section">Start time</div><div class="sub" id="wday" style="padding-top:0">${d.day >= 0 ? esc(dayLabel(d.day)) : 'Pick a day to see the start times'}</div>${lists}
<div class="section">How long?</div><div class="durs" id="durs">${durs}</div>
<div class="sum" id="sum"></div>
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Continue</button><div class="spacer"></div>`;
  const script = `const T={day:${d.day},time:${d.time},hours:${d.hours}};const RATE=${c.rateCents};const CAP=${c.dayCents};const DAYS=${JSON.stringify(labels)};
const fmt=c=>'$'+(c/100).toLocaleString('en-US',{minimumFractionDigits:2,maximumFractionDigits:2});
function tl(h){h=((h%24)+24)%24;const hh=Math.floor(h),mm=Math.round((h-hh)*60);return (hh%12===0?12:hh%12)+':'+String(mm).padStart(2,'0')+' '+(hh<12?'AM':'PM')}
function paint(){for(const b of document.querySelectorAll('.tm[data-t]')){const on=Number(b.dataset.day)===T.day&&Number(b.dataset.t)===T.time;b.classList.toggle('sel',on);b.setAttribute('aria-pressed',String(on));b.querySelector('.st').textContent=on?'Selected':'Available'}
 for(const b of document.querySelectorAll('#durs .dur')){const on=Number(b.dataset.h)===T.hours;b.classList.toggle('sel',on);b.setAttribute('aria-pressed',String(on))}
 const s=document.getElementById('sum');if(T.day>=0&&T.time>=0&&T.hours>0){const end=T.day*24+T.time+T.hours;s.textContent='Return '+DAYS[Math.floor(end/24)]+', '+tl(end)+' · Estimated '+fmt(Math.min(T.hours*RATE,CAP))}else s.textContent=''}
function pickDay(el){const d=Number(el.dataset.day);if(T.day!==d)T.time=-1;T.day=d;for(const b of document.querySelectorAll('.strip .dd')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on))}
 for(const l of document.querySelectorAll('.times'))l.hidden=Number(l.dataset.for)!==d;document.getElementById('wday').textContent=el.getAttribute('aria-label');document.getElementById('err').textContent='';paint()}
function pickTime(el){T.day=Number(el.dataset.day);T.time=Number(el.dataset.t);document.getElementById('err').textContent='';paint()}
function pickDur(el){T.hours=Number(el.dataset.h);document.getElementById('err').textContent='';paint()}
paint();
let busy=false;function next(){const e=document.getElementById('err');if(T.day<0){e.textContent='Pick a day';return}if(T.time<0){e.textContent='Pick a start time';return}if(!T.hours){e.textContent='Pick how long you need it';return}if(busy)return;busy=true;
 api('reserve-time',{car:${c.id},day:T.day,time:T.time,hours:T.hours}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/c/${c.id}/reserve/review';return}e.textContent=r.error||'That time is not available'})}`;
  return renderPage({ title: 'Reserve', css: CSS, body, ctx, script });
}

/** Reserve, step 2 of 2: the summary, damage protection, payment and Reserve car. */
function reserveReviewPage(st: CarshareState, ctx: AppContext, c: Car): AppResponse {
  const d = st.draft;
  const start = d.day * 24 + d.time;
  const est = timeCents(c, d.hours);
  const prots = PROTECTIONS.map(
    ([n, s, cents]) =>
      `<button class="choice${n === 'Standard' ? ' sel' : ''}" role="radio" aria-checked="${n === 'Standard'}" data-v="${esc(n)}" data-c="${cents}" onclick="prot(this)"><span class="box"></span><div class="info"><div class="t">${esc(n)}</div><div class="s">${esc(s)}</div></div></button>`,
  ).join('');
  const body = `${appbar('Reserve', { back: true, menu: false })}
<div class="steps">Step 2 of 2 · Review</div>
<div class="head">${glyph(c, 52)}<div><h2 style="font-size:20px">${esc(c.model)}</h2><div class="s">${esc(placeName(st, c))} · Plate ${esc(c.plate)}</div></div></div>
<div class="kv"><span class="k">Car</span><span class="v" id="rv-car">${esc(c.model)}</span></div>
<div class="kv"><span class="k">Pick up</span><span class="v" id="rv-start">${esc(whenLabel(start))}</span></div>
<div class="kv"><span class="k">Return by</span><span class="v" id="rv-end">${esc(whenLabel(start + d.hours))}</span></div>
<div class="kv"><span class="k">Length</span><span class="v" id="rv-hours">${esc(hoursLabel(d.hours))}</span></div>
<div class="kv"><span class="k">Time (${esc(perHour(c))}, ${esc(money(c.dayCents))} a day max)</span><span class="v">${esc(money(est))}</span></div>
<div class="section">Damage protection</div><div id="prots" role="radiogroup">${prots}</div>
<div class="kv total"><span class="k">Estimated total</span><span class="v" id="rv-total">${esc(money(est))}</span></div>
<div class="kv"><span class="k">Pay with</span><span class="v">${esc(CARD)}</span></div>
<div class="sub">Your ${esc(money(st.creditCents))} driving credit is used first. Free to cancel until 24 hours before pick-up; after that, half the time cost is charged.</div>
<div class="error" id="err"></div>
<button class="primary" id="confirm" onclick="book()">Reserve car</button><div class="spacer"></div>`;
  const script = `const EST=${est};let P='Standard';
const fmt=c=>'$'+(c/100).toLocaleString('en-US',{minimumFractionDigits:2,maximumFractionDigits:2});
function prot(el){P=el.dataset.v;for(const o of document.querySelectorAll('#prots .choice')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}document.getElementById('rv-total').textContent=fmt(EST+Number(el.dataset.c))}
let busy=false;function book(){if(busy)return;busy=true;api('reserve',{car:${c.id},protection:P}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/'+r.id+'?toast=reserved');return}
 document.getElementById('err').textContent=r.error||'Could not reserve this car'})}`;
  return renderPage({ title: 'Reserve', css: CSS, body, ctx, script });
}

function tripRow(st: CarshareState, ctx: AppContext, r: Reservation, past: boolean): string {
  const c = carOf(st, r.carId)!;
  let pill: string;
  if (r.canceled) pill = '<span class="pill grey">Canceled</span>';
  else if (isActive(r)) pill = '<span class="pill now">On a trip now</span>';
  else if (!past) pill = '<span class="pill ok">Confirmed</span>';
  else pill = `<span class="pill grey">Completed · ${esc(money(tripCents(c, r)))}</span>`;
  const when = past ? `${shortDay(dayOf(r.start))} · ${spanLabel(r)}` : spanLabel(r);
  return `<a class="trow${r.canceled ? ' gone' : ''}" href="${ctx.base}/t/${r.id}" data-car="${esc(c.model)}" data-day="${esc(dayLabel(dayOf(r.start)))}">${glyph(c, 46)}<div class="info"><div class="n">${esc(c.model)}</div><div class="s">${esc(when)}</div><div class="s">${esc(placeName(st, c))}</div>${pill}</div><span class="chev">&rsaquo;</span></a>`;
}

function tripsPage(st: CarshareState, ctx: AppContext, past: boolean): AppResponse {
  const tabs = tabBar(
    [
      ['up', 'Upcoming', `${ctx.base}/trips`],
      ['past', 'Past', `${ctx.base}/trips/past`],
    ],
    past ? 'past' : 'up',
  );
  let list: string;
  if (past) {
    const done = st.reservations.filter(isPast).sort((a, b) => b.start - a.start || b.id - a.id);
    list = `<div class="sub">Earlier trips · last 30 days</div>${done.map((r) => tripRow(st, ctx, r, true)).join('') || '<div class="empty">No past trips</div>'}
<div class="sub">Older trips and receipts are on wheelnook.com.</div>`;
  } else {
    const active = st.reservations.filter(isActive);
    const up = st.reservations.filter(isUpcoming).sort((a, b) => a.start - b.start || a.id - b.id);
    const days = [...new Set(up.map((r) => dayOf(r.start)))];
    list = `${active.length ? `<div class="dayhdr">On a trip now</div>${active.map((r) => tripRow(st, ctx, r, false)).join('')}` : ''}
<div class="sub">Coming up · ${up.length} trip${up.length === 1 ? '' : 's'}</div>${
      days.map((d) => `<div class="dayhdr">${esc(dayName(d))}</div>${up.filter((r) => dayOf(r.start) === d).map((r) => tripRow(st, ctx, r, false)).join('')}`).join('') ||
      `<div class="empty">Nothing reserved. <a href="${ctx.base}/" style="color:${ACCENT};font-weight:bold">Find a car</a></div>`
    }`;
  }
  const body = `${appbar('Trips')}${tabs}${list}<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}`;
  return renderPage({ title: 'Trips', css: CSS, body, ctx, root: true });
}

/** A trip: upcoming (extend, cancel), current (lock, extend, report damage) or past (receipt, report damage). */
function tripPage(st: CarshareState, ctx: AppContext, r: Reservation, t: string): AppResponse {
  const c = carOf(st, r.carId)!;
  const p = placeOf(st, c.placeId)!;
  const active = isActive(r);
  const past = isPast(r);
  const reports = st.reports.filter((x) => x.reservationId === r.id);
  // The banner of the latest thing done to this trip in this session.
  const events: [number, string][] = [];
  if (!r.seeded && !r.canceled) events.push([r.seq, `<div class="banner good"><h2>You're all set</h2>The ${esc(c.model)} is yours ${esc(whenShort(r.start))} to ${esc(timeLabel(endOf(r)))}. We sent the details to ${esc(USER_EMAIL)}.</div>`]);
  if (r.extendedFrom && !r.canceled)
    events.push([r.extendedFrom.seq, `<div class="banner good"><h2>Trip extended</h2>Return by ${esc(whenShort(endOf(r)))} now (was ${esc(timeLabel(r.start + r.extendedFrom.hours))}).</div>`]);
  if (r.canceled && r.seq > 0) events.push([r.seq, `<div class="banner stop"><h2>Reservation canceled</h2>Reason: ${esc(r.cancelReason)}. Nothing was charged.</div>`]);
  for (const x of reports.filter((y) => !y.seeded))
    events.push([x.seq, `<div class="banner good"><h2>Report sent</h2>Thanks. Reference DR-${x.id}. Our team looks at reports within 2 business days; you won't be charged for damage you report before your next trip.</div>`]);
  const top = events.sort((a, b) => b[0] - a[0])[0]?.[1] ?? '';
  const head = `<div class="head">${glyph(c, 56)}<div><h2 style="font-size:20px">${esc(c.model)}</h2><div class="s">${esc(p.name)} · Plate ${esc(c.plate)}</div></div></div>`;
  const reportRows = reports
    .map((x) => `<div class="kv"><span class="k">Damage reported</span><span class="v">${esc(x.area)} · ${esc(x.status)}</span></div>${x.note ? `<div class="para">“${esc(x.note)}”</div>` : ''}`)
    .join('');
  let main: string;
  let dialogs = '';
  let script = '';
  if (past) {
    const time = timeCents(c, r.hours);
    const prot = protectionCents(r.protection);
    main = `<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(dayOf(r.start)))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v">${esc(spanLabel(r))}</span></div>
${
  r.canceled
    ? `<div class="banner stop"><h2>Canceled</h2>You canceled this reservation. Reason: ${esc(r.cancelReason)}.</div>`
    : `<div class="section">Receipt</div>
<div class="kv"><span class="k">${esc(hoursLabel(r.hours))} at ${esc(perHour(c))}</span><span class="v">${esc(money(time))}</span></div>
<div class="kv"><span class="k">Distance, ${r.miles} mi (180 included)</span><span class="v">$0.00</span></div>
${prot ? `<div class="kv"><span class="k">${esc(r.protection)}</span><span class="v">${esc(money(prot))}</span></div>` : ''}
<div class="kv total"><span class="k">Total</span><span class="v">${esc(money(time + prot))}</span></div>
<div class="kv"><span class="k">Charged to</span><span class="v">${esc(CARD)}</span></div>
${reportRows}
${
  canReport(r)
    ? `<a class="line" id="damage-btn" href="${ctx.base}/t/${r.id}/damage">Report damage</a>`
    : `<div class="banner info">To report damage on a trip more than 14 days ago, contact support at (800) 555-0199.</div>`
}`
}
<a class="line" href="${ctx.base}/c/${c.id}">Reserve this car again</a>`;
  } else {
    main = `<div class="kv"><span class="k">Pick up</span><span class="v" id="t-start">${esc(whenLabel(r.start))}</span></div>
<div class="kv"><span class="k">Return by</span><span class="v" id="t-end">${esc(whenLabel(endOf(r)))}</span></div>
<div class="kv"><span class="k">Length</span><span class="v" id="t-hours">${esc(hoursLabel(r.hours))}</span></div>
<div class="kv"><span class="k">Estimate</span><span class="v">${esc(money(tripCents(c, r)))}</span></div>
<div class="kv"><span class="k">Protection</span><span class="v">${esc(r.protection)}</span></div>
<div class="facts" style="padding-top:10px"><div><b>Where:</b> ${esc(p.name)}, ${esc(p.address)}</div><div>${esc(p.access)}</div></div>
${
  active
    ? `<div class="section">Car controls</div><div class="locks"><button id="unlock" class="${st.locked ? '' : 'on'}" onclick="lock(false)">&#128275; Unlock</button><button id="lock" class="${st.locked ? 'on' : ''}" onclick="lock(true)">&#128274; Lock</button></div><div class="sub" id="lock-st" role="status">${st.locked ? 'Car locked' : 'Car unlocked'}</div>
<div class="kv"><span class="k">${c.electric ? 'Charge' : 'Fuel'}</span><span class="v">${esc(levelText(c))}</span></div>${reportRows}`
    : ''
}
${r.canceled ? '' : `<a class="line" id="extend-btn" href="${ctx.base}/t/${r.id}/extend">Extend trip</a>`}
${active ? `<a class="line" id="damage-btn" href="${ctx.base}/t/${r.id}/damage">Report damage</a><div class="sub">End the trip by locking the car at ${esc(p.name)} and leaving the key card in the visor.</div>` : ''}
${canCancel(r) ? `<button class="line red" id="cancel-btn" onclick="openCancel()">Cancel reservation</button>` : ''}`;
    if (active) script += `function lock(on){api('lock',{on}).then(r=>{if(!r.ok)return;document.getElementById('lock').classList.toggle('on',on);document.getElementById('unlock').classList.toggle('on',!on);document.getElementById('lock-st').textContent=on?'Car locked':'Car unlocked'})}\n`;
    if (canCancel(r)) {
      const late = r.start - NOW < 24;
      const reasons = CANCEL_REASONS.map(
        (x) => `<button class="choice" role="radio" aria-checked="false" data-v="${esc(x)}" onclick="pickReason(this)"><span class="box"></span><div class="info"><div class="t">${esc(x)}</div></div></button>`,
      ).join('');
      dialogs = `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel this reservation?"><h2>Cancel this reservation?</h2>
<p>${esc(c.model)}, ${esc(whenShort(r.start))}. ${late ? `It starts in less than 24 hours, so ${esc(money(Math.round(timeCents(c, r.hours) / 2)))} will be charged.` : 'There is no fee to cancel now.'}</p><p style="margin-bottom:2px"><b>Why are you canceling? (optional)</b></p><div id="reasons" role="radiogroup">${reasons}</div><div class="err" id="cerr"></div>
<div class="acts"><button onclick="hide('cancel')">Keep reservation</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Yes, cancel it</button></div></div></div>`;
      script += `let R='';function openCancel(){R='';for(const o of document.querySelectorAll('#reasons .choice')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('cerr').textContent='';show('cancel')}
function pickReason(el){R=el.dataset.v;for(const o of document.querySelectorAll('#reasons .choice')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doCancel(){if(busy)return;busy=true;api('cancel',{id:${r.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/${r.id}?toast=canceled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`;
    }
  }
  const title = active ? 'Current trip' : past ? 'Past trip' : 'Trip details';
  const msg: Record<string, string> = { reserved: 'Car reserved', extended: 'Trip extended', canceled: 'Reservation canceled', reported: 'Report sent' };
  const body = `${appbar(title, { back: true })}${top}${head}${main}
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}${dialogs}${msg[t] ? toast(msg[t]) : ''}`;
  return renderPage({ title, css: CSS, body, ctx, script });
}

function extendPage(st: CarshareState, ctx: AppContext, r: Reservation): AppResponse {
  const c = carOf(st, r.carId)!;
  const end = endOf(r);
  const rows = EXTRAS.map(([name, h]) => {
    const hit = conflict(st, c.id, end, end + h, r.id);
    if (hit) {
      const why = hit.by === 'member' ? `another member has it from ${timeLabel(hit.block.start)}` : `your ${modelOf(st, hit.res)} trip starts ${timeLabel(hit.res.start)}`;
      return `<div class="choice dim" aria-disabled="true" data-x="${esc(name)}"><span class="box"></span><div class="info"><div class="t">${esc(name)}</div><div class="s">Not available · ${esc(why)}</div></div></div>`;
    }
    return `<button class="choice" role="radio" aria-checked="false" data-v="${esc(name)}" data-end="${esc(whenShort(end + h))}" data-cost="${esc(money(timeCents(c, r.hours + h) - timeCents(c, r.hours)))}" onclick="pick(this)"><span class="box"></span><div class="info"><div class="t">${esc(
      name,
    )}</div><div class="s">Return by ${esc(timeLabel(end + h))} · +${esc(money(timeCents(c, r.hours + h) - timeCents(c, r.hours)))}</div></div></button>`;
  }).join('');
  const body = `${appbar('Extend trip', { back: true, menu: false })}
<div class="banner info"><b>Now:</b> return by ${esc(whenLabel(end))}<br>${esc(c.model)} · ${esc(placeName(st, c))}</div>
<div class="q">How much more time?</div>
<div id="extras" role="radiogroup">${rows}</div>
<div class="sub">Need more than 4 extra hours? Make a new reservation after this one.</div>
<div class="error" id="err"></div>
<button class="primary" id="save" onclick="ask()">Extend trip</button><div class="spacer"></div>
<div id="ext" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Extend this trip?"><h2>Extend this trip?</h2>
<p>Return by <b id="ext-to"></b> instead of ${esc(whenShort(end))}.</p><p>Extra time: <b id="ext-cost"></b>, charged to ${esc(CARD)}.</p><div class="err" id="xerr"></div>
<div class="acts"><button id="ext-back" onclick="hide('ext')">Keep current time</button><button id="ext-ok" onclick="extend()">Extend</button></div></div></div>`;
  const script = `let X=null;
function pick(el){X=el;document.getElementById('err').textContent='';for(const o of document.querySelectorAll('#extras button.choice')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function ask(){if(!X){document.getElementById('err').textContent='Choose how much time to add';return}document.getElementById('ext-to').textContent=X.dataset.end;document.getElementById('ext-cost').textContent=X.dataset.cost;document.getElementById('xerr').textContent='';show('ext')}
let busy=false;function extend(){if(busy||!X)return;busy=true;api('extend',{id:${r.id},extra:X.dataset.v}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/${r.id}?toast=extended');return}document.getElementById('xerr').textContent=r.error||'The car is not free then'})}`;
  return renderPage({ title: 'Extend trip', css: CSS, body, ctx, script });
}

function damagePage(st: CarshareState, ctx: AppContext, r: Reservation): AppResponse {
  const c = carOf(st, r.carId)!;
  const tiles = DAMAGE_AREAS.map((a) => `<button class="ptile" role="radio" aria-checked="false" data-v="${esc(a)}" onclick="pickArea(this)">${esc(a)}</button>`).join('');
  const before = BEFORE_OPTIONS.map((o) => `<button class="chip" data-v="${esc(o)}" aria-pressed="false" onclick="pickBefore(this)">${esc(o)}</button>`).join('');
  const body = `${appbar('Report damage', { back: true, menu: false })}
<div class="sub">${esc(c.model)} · Plate ${esc(c.plate)} · ${esc(shortDay(dayOf(r.start)))}, ${esc(spanLabel(r))}</div>
<div class="field" id="f-area"><label>Where is the damage?</label><div class="ptiles" id="areas" role="radiogroup">${tiles}</div><div class="ferr" id="e-area"></div></div>
<div class="field" id="f-note"><label for="note">What happened?</label><textarea id="note" maxlength="${NOTE_MAX + 40}" placeholder="Describe the damage: how big it is and exactly where"></textarea><div class="ferr" id="e-note"></div></div>
<div class="field" id="f-before"><label>Was it there when you picked up the car? (optional)</label><div class="chips">${before}</div></div>
<div class="sub">After you send the report we email you a link to add photos. Reports made before your next trip are never charged to you.</div>
<div class="error" id="err"></div>
<button class="primary" id="send" onclick="send()">Send report</button><div class="spacer"></div>`;
  const script = `const V={area:'',before:''};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function pickArea(el){V.area=el.dataset.v;clr('area');for(const o of document.querySelectorAll('#areas .ptile')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function pickBefore(el){V.before=V.before===el.dataset.v?'':el.dataset.v;for(const o of document.querySelectorAll('#f-before .chip')){const on=o.dataset.v===V.before;o.classList.toggle('sel',on);o.setAttribute('aria-pressed',String(on))}}
let busy=false;function send(){if(busy)return;clr('area');clr('note');document.getElementById('err').textContent='';busy=true;
 api('report',{id:${r.id},area:V.area,note:document.getElementById('note').value,before:V.before}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/${r.id}?toast=reported');return}
 for(const [k,m] of Object.entries(r.errors||{})){const e=document.getElementById('e-'+k);if(e)e.textContent=m;const f=document.getElementById('f-'+k);if(f)f.classList.add('bad')}if(r.error)document.getElementById('err').textContent=r.error})}`;
  return renderPage({ title: 'Report damage', css: CSS, body, ctx, script });
}

function walletPage(st: CarshareState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string, v = ''): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div>${v ? `<span class="v">${esc(v)}</span>` : ''}</div>`;
  const receipts = st.reservations
    .filter((r) => isPast(r) && !r.canceled)
    .sort((a, b) => b.start - a.start)
    .map((r) => row(modelOf(st, r), `${shortDay(dayOf(r.start))} · ${hoursLabel(r.hours)}`, money(tripCents(carOf(st, r.carId)!, r))))
    .join('');
  const body = `${appbar('Wallet')}
<div class="credit"><div class="k">Driving credit</div><div class="h">${esc(money(st.creditCents))}</div><div class="b">Used before your card on your next trips. Expires December 31.</div></div>
<div class="section">Payment methods</div>${row(CARD, 'Default · Expires 09/27')}${row('Mastercard •••• 0951', 'Expires 02/26')}
<div class="section">Plan</div>${row('Monthly plan', '$9 a month · renews June 14', '$9.00')}
<div class="section">Receipts</div>${receipts}
<div class="spacer"></div>${bottomNav(ctx, 'wallet')}${menu(ctx)}`;
  return renderPage({ title: 'Wallet', css: CSS, body, ctx, root: true });
}

function accountPage(st: CarshareState, ctx: AppContext, t: string): AppResponse {
  const row = (title: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(s)}</div></div></div>`;
  const sw = (key: string, title: string, s: string, on: boolean): string =>
    `<div class="row"><div class="info"><div class="t">${esc(title)}</div><div class="s">${esc(s)}</div></div><button class="switch${on ? ' on' : ''}" role="switch" aria-checked="${on}" aria-label="${esc(title)}" data-k="${key}" onclick="pref(this)"></button></div>`;
  const drivers = liveDrivers(st);
  const fresh = st.drivers.filter((d) => !d.seeded && !d.removed).sort((a, b) => b.seq - a.seq)[0];
  const removed = st.drivers.filter((d) => d.removed).sort((a, b) => b.seq - a.seq)[0];
  let top = '';
  if (fresh && (!removed || fresh.seq > removed.seq)) top = `<div class="banner good"><h2>Invite sent</h2>We emailed ${esc(fresh.name)} at ${esc(fresh.email)}. They can drive once we've checked their licence, usually within a day.</div>`;
  else if (removed) top = `<div class="banner info"><h2>Driver removed</h2>${esc(removed.name)} can no longer book cars on your account.</div>`;
  const rows = drivers
    .map(
      (d) =>
        `<div class="drv" data-driver="${esc(d.name)}"><div class="glyph" style="background:#868e96;width:44px;height:44px;font-size:17px;font-weight:bold">${esc(
          d.name
            .split(' ')
            .map((w) => w[0] ?? '')
            .join(''),
        )}</div><div class="info"><div class="t">${esc(d.name)}</div><div class="s">${esc(d.relation)} · ${esc(d.email)}</div><span class="pill ${d.status === 'Approved' ? 'ok' : 'now'}">${esc(d.status)}</span> <span class="muted" style="font-size:13px">${esc(d.since)}</span></div><button class="rm" data-id="${d.id}" data-name="${esc(d.name)}" onclick="askRemove(this)">Remove</button></div>`,
    )
    .join('');
  const body = `${appbar('Account')}${top}
<div class="head"><div class="glyph" style="background:${ACCENT};font-size:22px;font-weight:bold">LM</div><div><h2>${esc(USER)}</h2><div class="s">${esc(USER_EMAIL)}</div><div class="s">${esc(USER_PHONE)}</div></div></div>
<div class="section">Drivers on your account</div>
<div class="drv"><div class="glyph" style="background:${ACCENT};width:44px;height:44px;font-size:17px;font-weight:bold">LM</div><div class="info"><div class="t">${esc(USER)}</div><div class="s">Account owner</div></div></div>${rows}
${drivers.length < MAX_DRIVERS ? `<a class="line" id="add-driver" href="${ctx.base}/account/drivers/new">Add a driver</a>` : `<div class="sub">Your plan allows ${MAX_DRIVERS} drivers besides you.</div>`}
<div class="sub">Trips by other drivers are billed to your card. Each driver has their own app login.</div>
<div class="section">Membership</div>${row('Monthly plan', '$9 a month · member since 2021')}${row("Driver's licence", 'California •••• 5521 · expires 2028 · verified')}
<div class="section">Notifications</div>${sw('reminders', 'Trip reminders', '30 minutes before pick-up and return', st.prefs.reminders)}${sw('receipts', 'Email receipts', 'After every trip', st.prefs.receipts)}${sw('offers', 'Offers and news', 'About once a month', st.prefs.offers)}
<div class="section">Support</div>${row('Help center', 'Trips, billing and damage')}${row('Terms and privacy', 'Version 6.1')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}
<div id="rm" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Remove driver?"><h2>Remove <span id="rm-name"></span>?</h2><p>They won't be able to book cars on your account. Trips they already reserved are canceled.</p><div class="err" id="rerr"></div>
<div class="acts"><button onclick="hide('rm')">Keep</button><button class="destroy" id="rm-ok" onclick="doRemove()">Remove</button></div></div></div>
${t === 'invited' && fresh ? toast('Invite sent') : t === 'removed' ? toast('Driver removed') : ''}`;
  const script = `function pref(el){const on=el.getAttribute('aria-checked')!=='true';api('pref',{key:el.dataset.k,on}).then(r=>{if(!r.ok)return;el.classList.toggle('on',on);el.setAttribute('aria-checked',String(on))})}
let RM=0;function askRemove(el){RM=Number(el.dataset.id);document.getElementById('rm-name').textContent=el.dataset.name;document.getElementById('rerr').textContent='';show('rm')}
let busy=false;function doRemove(){if(busy)return;busy=true;api('driver-remove',{id:RM}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/account?toast=removed');return}document.getElementById('rerr').textContent=r.error||'Could not remove'})}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, script, root: true });
}

/** Add a driver, step 1 of 2: name, email and how the member knows them. */
function driverFormPage(st: CarshareState, ctx: AppContext): AppResponse {
  const d = st.driverDraft;
  const rels = RELATIONS.map(
    ([r, s]) =>
      `<button class="choice${r === d.relation ? ' sel' : ''}" role="radio" aria-checked="${r === d.relation}" data-v="${esc(r)}" onclick="rel(this)"><span class="box"></span><div class="info"><div class="t">${esc(r)}</div>${s ? `<div class="s">${esc(s)}</div>` : ''}</div></button>`,
  ).join('');
  const body = `${appbar('Add a driver', { back: true, menu: false })}
<div class="steps">Step 1 of 2 · Driver details</div>
<div class="sub">They must be 21 or older with a licence held for at least 2 years. We check their driving record before their first trip.</div>
<div class="field" id="f-name"><label for="name">Full name</label><input id="name" type="text" autocomplete="off" maxlength="60" placeholder="As on their licence" value="${esc(d.name)}"><div class="ferr" id="e-name"></div></div>
<div class="field" id="f-email"><label for="email">Email</label><input id="email" type="email" autocomplete="off" maxlength="80" placeholder="We send the invite here" value="${esc(d.email)}"><div class="ferr" id="e-email"></div></div>
<div class="field" id="f-relation"><label>How do you know them?</label><div id="relations" role="radiogroup">${rels}</div><div class="ferr" id="e-relation"></div></div>
<div class="error" id="err"></div>
<button class="primary" id="next" onclick="next()">Continue</button><div class="spacer"></div>`;
  const script = `let REL=${JSON.stringify(d.relation)};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function rel(el){REL=el.dataset.v;clr('relation');for(const o of document.querySelectorAll('#relations .choice')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function next(){if(busy)return;for(const k of ['name','email','relation'])clr(k);document.getElementById('err').textContent='';busy=true;
 api('driver-form',{name:document.getElementById('name').value,email:document.getElementById('email').value,relation:REL}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/account/drivers/review';return}
 for(const [k,m] of Object.entries(r.errors||{})){const e=document.getElementById('e-'+k);if(e)e.textContent=m;const f=document.getElementById('f-'+k);if(f)f.classList.add('bad')}if(r.error)document.getElementById('err').textContent=r.error})}`;
  return renderPage({ title: 'Add a driver', css: CSS, body, ctx, script });
}

/** Add a driver, step 2 of 2: the details, what they will be able to do, and Send invite. */
function driverReviewPage(st: CarshareState, ctx: AppContext): AppResponse {
  const d = st.driverDraft;
  const body = `${appbar('Add a driver', { back: true, menu: false })}
<div class="steps">Step 2 of 2 · Send invite</div>
<div class="kv"><span class="k">Name</span><span class="v" id="rv-name">${esc(d.name)}</span></div>
<div class="kv"><span class="k">Email</span><span class="v" id="rv-email">${esc(d.email)}</span></div>
<div class="kv"><span class="k">Relationship</span><span class="v" id="rv-relation">${esc(d.relation)}</span></div>
<div class="section">What they can do</div>
<div class="para">Reserve and drive any Wheelnook car on your plan's rates. Their trips are charged to ${esc(CARD)} and show up in your Trips. You can remove them any time.</div>
<div class="sub">We'll email them a link to add their licence. The invite expires in 14 days.</div>
<div class="error" id="err"></div>
<button class="primary" id="send" onclick="send()">Send invite</button>
<a class="line" href="${ctx.base}/account/drivers/new">Edit</a><div class="spacer"></div>`;
  const script = `let busy=false;function send(){if(busy)return;busy=true;api('driver-send',{}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/account?toast=invited');return}document.getElementById('err').textContent=r.error||'Could not send the invite'})}`;
  return renderPage({ title: 'Add a driver', css: CSS, body, ctx, script });
}

function handleApi(st: CarshareState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'reserve-time': {
      const c = carOf(st, Number(b.car));
      if (!c || !c.inService) return json({ ok: false, error: 'This car is not available right now' }, 409);
      const d = { carId: c.id, day: Number(b.day), time: Number(b.time), hours: Number(b.hours) };
      const errors = reserveErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, error: Object.values(errors)[0] });
      st.draft = d;
      return json({ ok: true });
    }
    case 'reserve': {
      const c = carOf(st, Number(b.car));
      const d = st.draft;
      if (!c || d.carId !== c.id) return json({ ok: false, error: 'Start again from the car' }, 409);
      const errors = reserveErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, error: Object.values(errors)[0] }, 409);
      const protection = PROTECTIONS.some(([p]) => p === str(b.protection)) ? str(b.protection) : 'Standard';
      const id = 701 + st.reservations.filter((r) => !r.seeded).length;
      st.reservations.push({ id, carId: c.id, start: d.day * 24 + d.time, hours: d.hours, canceled: false, cancelReason: '', protection, miles: 0, extendedFrom: null, seeded: false, seq: st.seq });
      st.draft = emptyDraft();
      return json({ ok: true, id });
    }
    case 'extend': {
      const r = resOf(st, Number(b.id));
      if (!r || !canExtend(r)) return json({ ok: false, error: 'This trip can no longer be extended' }, 409);
      const extra = EXTRAS.find(([e]) => e === str(b.extra));
      if (!extra) return json({ ok: false, error: 'Choose how much time to add' });
      if (conflict(st, r.carId, endOf(r), endOf(r) + extra[1], r.id)) return json({ ok: false, error: 'The car is not free for that long' }, 409);
      r.extendedFrom = { hours: r.extendedFrom?.hours ?? r.hours, seq: st.seq };
      r.hours += extra[1];
      return json({ ok: true });
    }
    case 'cancel': {
      const r = resOf(st, Number(b.id));
      const reason = str(b.reason);
      if (!r || !canCancel(r)) return json({ ok: false, error: 'This reservation can no longer be canceled' }, 409);
      if (reason && !CANCEL_REASONS.includes(reason)) return json({ ok: false, error: 'Pick a reason from the list' });
      r.canceled = true;
      r.cancelReason = reason || 'Not given';
      r.seq = st.seq;
      return json({ ok: true });
    }
    case 'report': {
      const r = resOf(st, Number(b.id));
      if (!r || !canReport(r)) return json({ ok: false, error: 'Damage on this trip can no longer be reported in the app' }, 409);
      const area = str(b.area);
      const note = str(b.note).trim().replace(/\s+/g, ' ');
      const before = BEFORE_OPTIONS.includes(str(b.before)) ? str(b.before) : '';
      const errors: Record<string, string> = {};
      if (!DAMAGE_AREAS.includes(area)) errors.area = 'Choose where the damage is';
      if (note.length < NOTE_MIN) errors.note = 'Describe the damage in a few words';
      else if (note.length > NOTE_MAX) errors.note = `Keep it under ${NOTE_MAX} characters`;
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.reports.push({ id: 4402 + st.reports.filter((x) => !x.seeded).length, reservationId: r.id, area, note, before, status: 'Received', seeded: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'driver-form': {
      const d = { name: str(b.name).trim().replace(/\s+/g, ' '), email: str(b.email).trim(), relation: str(b.relation) };
      const errors = driverErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.driverDraft = d;
      return json({ ok: true });
    }
    case 'driver-send': {
      const d = st.driverDraft;
      const errors = driverErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, error: 'Start the invite again' }, 409);
      st.drivers.push({ id: 81 + st.drivers.filter((x) => !x.seeded).length, ...d, status: 'Invite sent', since: 'Invited today', removed: false, seeded: false, seq: st.seq });
      st.driverDraft = emptyDriver();
      return json({ ok: true });
    }
    case 'driver-remove': {
      const d = st.drivers.find((x) => x.id === Number(b.id) && !x.removed);
      if (!d) return json({ ok: false, error: 'This driver is not on your account' }, 409);
      d.removed = true;
      d.seq = st.seq;
      return json({ ok: true });
    }
    case 'lock': {
      if (!st.reservations.some(isActive)) return json({ ok: false, error: 'You are not on a trip' }, 409);
      st.locked = b.on === true;
      return json({ ok: true });
    }
    case 'pref': {
      const key = str(b.key);
      if (key !== 'reminders' && key !== 'receipts' && key !== 'offers') return json({ ok: false }, 400);
      st.prefs[key] = b.on === true;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleCarshare(st: CarshareState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub, sub2] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return homePage(st, ctx);
  if (head === 'type') {
    const type = TYPE_NAMES.find((x) => slug(x) === arg);
    if (!type) return notFound(CSS);
    const cars = st.cars.filter((c) => c.type === type);
    return carsPage(st, ctx, type, cars, `${cars.length} cars near you`);
  }
  if (head === 'search') {
    const q = (req.query.get('q') ?? '').trim().slice(0, 60);
    const ql = q.toLowerCase();
    const cars = st.cars.filter((c) => {
      const p = placeOf(st, c.placeId);
      return !!ql && `${c.model} ${c.type} ${p?.name ?? ''} ${p?.address ?? ''} ${p?.area ?? ''}`.toLowerCase().includes(ql);
    });
    return carsPage(st, ctx, q ? `“${q}”` : 'Search', cars, `${cars.length} result${cars.length === 1 ? '' : 's'}`);
  }
  if (head === 'l') {
    const p = placeOf(st, Number(arg));
    return p ? placePage(st, ctx, p) : notFound(CSS);
  }
  if (head === 'c') {
    const c = carOf(st, Number(arg));
    if (!c) return notFound(CSS);
    if (sub === 'reserve') {
      if (!c.inService) return { status: 303, redirect: `${ctx.base}/c/${c.id}` };
      if (sub2 === undefined) return reserveTimePage(st, ctx, c);
      if (sub2 === 'review')
        return st.draft.carId !== c.id || Object.keys(reserveErrors(st, st.draft)).length ? { status: 303, redirect: `${ctx.base}/c/${c.id}/reserve` } : reserveReviewPage(st, ctx, c);
      return notFound(CSS);
    }
    return carPage(st, ctx, c);
  }
  if (head === 'trips') return tripsPage(st, ctx, arg === 'past');
  if (head === 't') {
    const r = resOf(st, Number(arg));
    if (!r) return notFound(CSS);
    if (sub === 'extend') return canExtend(r) ? extendPage(st, ctx, r) : { status: 303, redirect: `${ctx.base}/t/${r.id}` };
    if (sub === 'damage') return canReport(r) ? damagePage(st, ctx, r) : { status: 303, redirect: `${ctx.base}/t/${r.id}` };
    return tripPage(st, ctx, r, t);
  }
  if (head === 'wallet') return walletPage(st, ctx);
  if (head === 'account') {
    if (arg !== 'drivers') return accountPage(st, ctx, t);
    if (sub === 'new') return driverFormPage(st, ctx);
    if (sub === 'review') return Object.keys(driverErrors(st, st.driverDraft)).length ? { status: 303, redirect: `${ctx.base}/account/drivers/new` } : driverReviewPage(st, ctx);
    return notFound(CSS);
  }
  return notFound(CSS);
}
