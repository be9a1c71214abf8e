import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc, rng } from '../shared.js';
import {
  airportOf,
  ALL_SEATS,
  BAG_DEFAULT,
  BAG_OPTIONS,
  bagPrice,
  basket,
  bookingError,
  CARD,
  checkinOpen,
  checkinOpensText,
  cleanText,
  dayLabel,
  dayOfMonth,
  DESTINATIONS,
  durText,
  FARE_NAMES,
  farePrice,
  FARES,
  flightsOf,
  freeSeatFor,
  fullName,
  HOLDER,
  HOLDER_EMAIL,
  HOME,
  LAST_DAY,
  legOf,
  LETTERS,
  lightPrice,
  liveBags,
  makeLeg,
  MAX_ADULTS,
  MAX_BAGS,
  minutesOf,
  minutesUntil,
  monthShort,
  nameOf,
  NEW_REFS,
  NOW_MIN,
  PAST_TRIPS,
  paidBags,
  paxLeg,
  personOf,
  ROWS,
  seatFee,
  seatKind,
  seatsTaken,
  seatZone,
  shortDay,
  SUPPORT_PHONE,
  timeText,
  tripDest,
  tripFirstDay,
  tripOf,
  weekdayOf,
  type FlightsState,
  type Leg,
  type Person,
  type Scheduled,
  type Search,
  type Trip,
} from './state.js';

const ACCENT = '#1e3a8a';
const SOFT = '#dbeafe';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f5f9}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #dde2ec}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5a6275}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:120px}
.hello{margin:12px;padding:16px 18px;border-radius:16px;background:linear-gradient(135deg,${ACCENT},#3b5bdb);color:#fff}
.hello h2{margin:0 0 4px;font-size:22px}
.hello .d{font-size:15px;opacity:.92}
.card{display:block;margin:12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #dde2ec}
.card h2{margin:0 0 6px;font-size:19px}
.card .d{font-size:16px;color:#394256}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.warn{border-color:#ffd8a8;background:#fff4e6}
.ci{display:flex;gap:12px;align-items:center;margin:8px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:2px solid ${SOFT}}
.ci .info,.tr .info,.fl .info,.px .info,.ap .info,.bg .info,.bk .info{flex:1;min-width:0}
.ci .n,.tr .n,.px .n,.bg .n,.bk .n{font-size:18px;font-weight:bold}
.ci .s,.tr .s,.px .s,.bg .s,.bk .s{font-size:15px;color:#5a6275;margin-top:3px}
.btn{flex:none;height:44px;padding:0 16px;border-radius:22px;background:${ACCENT};color:#fff;font-size:16px;font-weight:bold;display:inline-flex;align-items:center;justify-content:center}
.btn.line{background:#fff;color:${ACCENT};border:2px solid ${ACCENT}}
.quick{display:grid;grid-template-columns:1fr 1fr 1fr;gap:10px;padding:8px 12px}
.quick a{display:flex;flex-direction:column;gap:6px;padding:12px;border-radius:14px;background:#fff;border:1px solid #dde2ec;font-size:15px;font-weight:bold;min-height:82px}
.quick a .g{font-size:22px;color:${ACCENT}}
.deal{display:flex;gap:14px;align-items:center;min-height:72px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e9f0}
.deal .pic{flex:none;width:54px;height:54px;border-radius:12px;display:flex;align-items:center;justify-content:center;color:#fff;font-weight:bold;font-size:15px}
.deal .info{flex:1}
.deal .n{font-size:18px;font-weight:bold}
.deal .s{font-size:14px;color:#5a6275;margin-top:2px}
.deal .p{flex:none;font-size:16px;font-weight:bold;color:${ACCENT}}
.go{font-size:24px;color:#9aa3b5}
.tr{display:flex;gap:14px;align-items:center;min-height:84px;padding:12px 16px;background:#fff;border-bottom:1px solid #e6e9f0}
.tr .ref{font-size:14px;color:#5a6275;margin-top:3px;letter-spacing:.3px}
.tr.past .n{color:#5a6275}
.badge{flex:none;font-size:13px;font-weight:bold;padding:5px 10px;border-radius:14px;background:${SOFT};color:${ACCENT}}
.badge.grey{background:#eef0f4;color:#5a6275}
.badge.ok{background:#d3f9d8;color:#2b8a3e}
.hero{padding:16px;background:#fff;border-bottom:1px solid #e6e9f0}
.hero h2{margin:0 0 4px;font-size:22px}
.hero .s{font-size:15px;color:#5a6275}
.fl{margin:10px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #dde2ec}
.fl .lbl{font-size:14px;font-weight:bold;color:${ACCENT};text-transform:uppercase;letter-spacing:.4px}
.fl .times{display:flex;align-items:center;gap:10px;margin:8px 0 4px;font-size:22px;font-weight:bold}
.fl .times .ln{flex:1;height:2px;background:#c5cce0;position:relative}
.fl .codes{display:flex;justify-content:space-between;font-size:15px;color:#5a6275}
.fl .meta{font-size:15px;color:#5a6275;margin-top:6px}
.fl .acts{display:flex;gap:10px;margin-top:12px;flex-wrap:wrap}
.fl .note{font-size:15px;color:#5a6275;margin-top:10px}
.px{display:flex;gap:14px;align-items:center;min-height:70px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e9f0}
.av{flex:none;width:44px;height:44px;border-radius:22px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.mrow{display:flex;gap:14px;align-items:center;min-height:66px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e9f0;width:100%;text-align:left}
.mrow .info{flex:1;min-width:0}
.mrow .t{font-size:17px;font-weight:bold}
.mrow .s{font-size:15px;color:#5a6275;margin-top:3px}
.intro{padding:12px 16px 4px;font-size:15px;color:#394256}
.seg{display:flex;gap:8px;padding:12px 12px 4px}
.seg button{flex:1;height:46px;border-radius:23px;border:2px solid #cdd3e1;font-size:17px;font-weight:bold;background:#fff;color:#394256}
.seg button[aria-checked="true"]{border-color:${ACCENT};background:${SOFT};color:${ACCENT}}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #cfd4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.pick .ph{color:#868e96}
.pick .code{font-size:14px;color:#5a6275;font-weight:bold}
.field.bad .pick{border-color:#c92a2a}
.ferr:empty{display:none}
.field .hint{font-size:14px;color:#5a6275;margin-top:6px}
.twin{display:flex;gap:0}
.twin .field{flex:1;margin-right:0}
.twin .field+.field{margin-left:8px;margin-right:12px}
.stepper{display:flex;align-items:center;gap:10px}
.stepper button{width:44px;height:44px;border-radius:22px;border:2px solid ${ACCENT};color:${ACCENT};font-size:24px;font-weight:bold;background:#fff}
.stepper button:disabled{border-color:#cfd4da;color:#adb5bd}
.stepper .val{min-width:40px;text-align:center;font-size:19px;font-weight:bold}
.full{position:fixed;left:0;right:0;top:28px;bottom:0;z-index:70;background:#fff;display:flex;flex-direction:column}
.full .top{display:flex;align-items:center;gap:6px;height:62px;padding:0 8px;border-bottom:1px solid #e6e9f0;flex:none}
.full .top h2{margin:0;font-size:20px;flex:1}
.full .top .x{min-width:44px;height:44px;font-size:24px;border-radius:22px;color:#394256}
.full .q{margin:10px 12px;flex:none}
.full .q input{width:100%;height:50px;border:2px solid #cfd4da;border-radius:25px;padding:0 18px;font-size:17px;outline:none}
.full .list{flex:1;overflow-y:auto;padding-bottom:40px}
.ap{display:flex;gap:14px;align-items:center;min-height:64px;padding:8px 16px;border-bottom:1px solid #eef0f4;width:100%;text-align:left}
.ap .code{flex:none;width:52px;height:36px;border-radius:8px;background:${SOFT};color:${ACCENT};font-weight:bold;font-size:15px;display:flex;align-items:center;justify-content:center}
.ap .n{font-size:18px;font-weight:bold}
.ap .s{font-size:14px;color:#5a6275;margin-top:2px}
.mon{padding:14px 16px 6px;font-size:18px;font-weight:bold}
.wk{display:grid;grid-template-columns:repeat(7,1fr);padding:0 8px;font-size:13px;font-weight:bold;color:#5a6275;text-align:center}
.cal{display:grid;grid-template-columns:repeat(7,1fr);gap:4px;padding:4px 8px 10px}
.cal button{height:46px;border-radius:23px;font-size:17px;font-weight:bold;color:#1f2328}
.cal button:disabled{color:#c3c8d2}
.cal button.sel{background:${ACCENT};color:#fff}
.strip{display:flex;gap:6px;padding:10px 8px;background:#fff;border-bottom:1px solid #e6e9f0}
.strip button{flex:1;background:#fff;min-width:0;border-radius:12px;border:2px solid #e1e5ee;padding:6px 2px;text-align:center;font-size:14px;color:#394256}
.strip button b{display:block;font-size:16px;color:#1f2328}
.strip button .pr{display:block;font-size:13px;color:${ACCENT};font-weight:bold;margin-top:2px}
.strip button.on{border-color:${ACCENT};background:${SOFT}}
.res{display:block;width:calc(100% - 24px);margin:10px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #dde2ec;text-align:left}
.res .row1{display:flex;align-items:center;gap:10px;font-size:22px;font-weight:bold}
.res .row1 .ln{flex:1;height:2px;background:#c5cce0}
.res .row2{display:flex;justify-content:space-between;margin-top:6px;font-size:15px;color:#5a6275}
.res .from{font-size:17px;font-weight:bold;color:${ACCENT}}
.res.closed{opacity:.55}
.sheet2{position:fixed;left:0;right:0;bottom:0;max-height:86vh;overflow-y:auto;background:#f3f5f9;border-radius:18px 18px 0 0;padding:6px 0 18px}
.sheet2 .hd{padding:12px 18px 4px}
.sheet2 .hd h2{margin:0;font-size:20px}
.sheet2 .hd .s{font-size:15px;color:#5a6275;margin-top:3px}
.fare{margin:10px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:2px solid #dde2ec}
.fare .top{display:flex;justify-content:space-between;align-items:baseline}
.fare .nm{font-size:20px;font-weight:bold}
.fare .pr{font-size:20px;font-weight:bold;color:${ACCENT}}
.fare ul{margin:8px 0 10px;padding-left:20px;font-size:15px;color:#394256}
.fare li{margin:3px 0}
.fare .btn{width:100%}
.sum{display:flex;justify-content:space-between;gap:16px;padding:12px 16px;background:#fff;border-bottom:1px solid #e6e9f0;font-size:17px}
.sum .k{color:#5a6275}
.sum .v{font-weight:bold;text-align:right}
.sum.total{font-size:19px}
.tick{display:flex;gap:14px;align-items:center;width:100%;min-height:60px;padding:10px 16px;background:#fff;border-bottom:1px solid #e6e9f0;text-align:left;font-size:16px}
.tick .box{flex:none;width:26px;height:26px;border-radius:6px;border:2px solid #868e96;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.tick[aria-checked="true"] .box{background:${ACCENT};border-color:${ACCENT}}
.tick[aria-disabled="true"]{opacity:.6}
.tick .info{flex:1}
.tick .n{font-size:18px;font-weight:bold}
.tick .s{font-size:15px;color:#5a6275;margin-top:3px}
.tick.bad .box{border-color:#c92a2a}
.dg{margin:0 12px;padding:12px 14px;background:#fff;border-radius:12px;font-size:15px;color:#394256;line-height:1.4}
.paxbar{display:flex;gap:8px;overflow-x:auto;padding:10px 12px;background:#fff;border-bottom:1px solid #e6e9f0}
.paxbar button{flex:none;min-height:48px;padding:6px 14px;border-radius:24px;border:2px solid #cdd3e1;font-size:15px;font-weight:bold;color:#394256;display:flex;flex-direction:column;justify-content:center;background:#fff}
.paxbar button span{font-size:13px;font-weight:normal;color:#5a6275}
.paxbar button.on{border-color:${ACCENT};background:${SOFT};color:${ACCENT}}
.legend{display:flex;flex-wrap:wrap;gap:8px 16px;padding:10px 16px;font-size:14px;color:#394256}
.legend i{display:inline-block;width:18px;height:18px;border-radius:5px;vertical-align:-4px;margin-right:6px;border:2px solid #9aa3b5;background:#fff}
.legend i.tk{background:#ced4da;border-color:#ced4da}
.legend i.xl{border-color:#e8590c}
.legend i.fr{border-color:#7048e8}
.legend i.me{background:${ACCENT};border-color:${ACCENT}}
.cabin{margin:6px auto 0;width:372px;background:#fff;border-radius:60px 60px 12px 12px;padding:26px 8px 12px;border:1px solid #dde2ec}
.cols,.srow{display:grid;grid-template-columns:repeat(3,46px) 40px repeat(3,46px);gap:6px;justify-content:center;align-items:center}
.cols{font-size:14px;font-weight:bold;color:#5a6275;text-align:center;margin-bottom:6px}
.srow{margin:6px 0}
.srow .rn{text-align:center;font-size:14px;font-weight:bold;color:#5a6275}
.zone{margin:14px 4px 4px;padding:4px 8px;font-size:13px;font-weight:bold;color:#5a6275;text-align:center;border-top:1px dashed #cdd3e1}
.st{height:44px;border-radius:8px 8px 12px 12px;border:2px solid #9aa3b5;background:#fff;font-size:14px;font-weight:bold;color:#5a6275}
.st.xl{border-color:#e8590c}
.st.fr{border-color:#7048e8}
.st.tk{background:#ced4da;border-color:#ced4da;color:transparent}
.st.co{background:${SOFT};border-color:#91a7ff;color:${ACCENT}}
.st.me{background:${ACCENT};border-color:${ACCENT};color:#fff}
.st.old{border-style:dashed}
.bar{position:fixed;left:0;right:0;bottom:0;z-index:30;display:flex;gap:12px;align-items:center;padding:12px 16px;background:#fff;border-top:1px solid #dde2ec;box-shadow:0 -2px 8px rgba(0,0,0,.06)}
.bar .info{flex:1;min-width:0}
.bar .n{font-size:17px;font-weight:bold}
.bar .s{font-size:14px;color:#5a6275;margin-top:2px}
.bar .btn{height:50px;border-radius:25px;padding:0 20px;font-size:17px}
.bg{display:block;margin:10px 12px;padding:14px 16px;background:#fff;border-radius:14px;border:1px solid #dde2ec}
.bg .top{display:flex;gap:12px;align-items:center}
.bg .inc{font-size:15px;color:#394256;margin-top:10px}
.bk{display:flex;gap:12px;align-items:center;min-height:62px;padding:8px 16px;background:#fff;border-bottom:1px solid #e6e9f0}
.rm{flex:none;height:40px;padding:0 14px;border-radius:20px;border:2px solid #c92a2a;color:#c92a2a;font-size:15px;font-weight:bold;background:#fff}
.sheet button.bopt{display:flex;gap:14px;align-items:center;width:100%;padding:12px 20px;text-align:left;border-bottom:1px solid #eef0f4}
.bopt .rad{flex:none;width:24px;height:24px;border-radius:12px;border:2px solid #868e96}
.bopt[aria-checked="true"] .rad{border:7px solid ${ACCENT}}
.bopt .info{flex:1}
.bopt .n{font-size:18px;font-weight:bold}
.bopt .s{font-size:14px;color:#5a6275;margin-top:2px}
.bopt .pr{flex:none;font-size:17px;font-weight:bold}
.sheet .sub{padding:0 20px 8px;font-size:15px;color:#5a6275}
.sheet .err{color:#c92a2a;font-size:15px;font-weight:bold;padding:4px 20px;min-height:8px}
.sheet button.primary{display:block;text-align:center;padding:0;margin:16px 12px 4px;width:calc(100% - 24px)}
.secondary{display:block;margin:12px;height:50px;border-radius:25px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:46px;background:#fff}
.twin{margin-top:-12px}
.pass{margin:12px;background:#fff;border-radius:16px;border:1px solid #dde2ec;overflow:hidden}
.pass .hd{background:${ACCENT};color:#fff;padding:12px 16px;display:flex;justify-content:space-between;font-weight:bold;font-size:16px}
.pass .bd{display:grid;grid-template-columns:1fr 1fr 1fr;gap:10px;padding:14px 16px}
.pass .bd .k{font-size:13px;color:#5a6275}
.pass .bd .v{font-size:18px;font-weight:bold}
.pass .nm{padding:12px 16px 0;font-size:19px;font-weight:bold}
.pass .code{margin:4px 16px 16px;height:58px;background:repeating-linear-gradient(90deg,#1f2328 0 3px,#fff 3px 5px,#1f2328 5px 6px,#fff 6px 10px)}
.me-card{display:flex;gap:14px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e6e9f0}
.me-card .n{font-size:20px;font-weight:bold}
.me-card .s{font-size:15px;color:#5a6275;margin-top:3px}
.snack{position:fixed;left:16px;right:16px;bottom:110px;z-index:80;background:#25282c;color:#fff;border-radius:10px;padding:15px 18px;font-size:17px;box-shadow:0 4px 14px rgba(0,0,0,.35)}
.ver{padding:16px;text-align:center;font-size:14px;color:#868e96}
`;

type Tab = 'home' | 'book' | 'trips' | 'profile';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar<Tab>(
    [
      { id: 'home', label: 'Home', glyph: '&#8962;', href: `${ctx.base}/` },
      { id: 'book', label: 'Book', glyph: '&#9992;', href: `${ctx.base}/book` },
      { id: 'trips', label: 'Trips', glyph: '&#9776;', href: `${ctx.base}/trips` },
      { id: 'profile', label: 'Profile', glyph: '&#9786;', href: `${ctx.base}/profile` },
    ],
    on,
  );
const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Book a flight', `${ctx.base}/book`],
    ['My trips', `${ctx.base}/trips`],
    ['Check in', `${ctx.base}/checkin`],
    ['Profile', `${ctx.base}/profile`],
  ]);
const snackJs = `function snack(t){let el=document.getElementById('snack');if(!el){el=document.createElement('div');el.id='snack';el.className='snack';el.setAttribute('role','status');document.body.appendChild(el)}el.textContent=t;el.hidden=false;clearTimeout(window.__sn);window.__sn=setTimeout(()=>{el.hidden=true},2500)}`;

const PAX_COLORS: Readonly<Record<string, string>> = { freya: '#1c7ed6', oskar: '#2f9e44', ida: '#c2255c', mikkel: '#e8590c' };
const paxAvatar = (p: Person): string => `<div class="av" aria-hidden="true" style="background:${PAX_COLORS[p.id] ?? '#7048e8'}">${esc(p.first[0] ?? '')}</div>`;
const route = (t: Trip): string => `${nameOf(HOME)} ${t.legs.length > 1 ? '⇄' : '→'} ${nameOf(tripDest(t))}`;
const whenText = (day: number): string => (day === 0 ? 'Today' : day === 1 ? 'Tomorrow' : shortDay(day));
const tripDates = (t: Trip): string => (t.legs.length > 1 ? `${shortDay(t.legs[0]!.day)} – ${shortDay(t.legs[t.legs.length - 1]!.day)}` : shortDay(t.legs[0]?.day ?? 0));
const paxCount = (n: number): string => `${n} passenger${n === 1 ? '' : 's'}`;
const money = (n: number): string => `€${n}`;
const legName = (t: Trip, l: Leg): string => (t.legs.length > 1 ? (l.id.endsWith('-out') ? 'Outbound' : 'Return') : 'One way');
const isChild = (p: Person | undefined): boolean => p?.childAge !== undefined;
const paxType = (p: Person): string => (isChild(p) ? `Child (${p.childAge})` : 'Adult');

function legCard(t: Trip, l: Leg, ctx: AppContext, actions: boolean): string {
  const all = l.pax.every((p) => p.checkedIn);
  const some = l.pax.some((p) => p.checkedIn);
  let acts = '';
  if (actions) {
    const seats = `<a class="btn line" id="seats-${l.id}" href="${ctx.base}/seats/${l.id}">Seats</a>`;
    const ci = checkinOpen(l)
      ? all
        ? `<a class="btn line" href="${ctx.base}/boarding/${l.id}">Boarding passes</a>`
        : `<a class="btn" id="checkin-${l.id}" href="${ctx.base}/checkin/${l.id}">Check in</a>`
      : '';
    const note = checkinOpen(l) ? (some && !all ? '<div class="note">Some passengers are checked in.</div>' : '') : `<div class="note">Online check-in opens ${esc(checkinOpensText(l))}.</div>`;
    acts = `<div class="acts">${seats}${ci}</div>${note}`;
  }
  return `<div class="fl" data-leg="${l.id}" data-to="${esc(nameOf(l.to))}"><div class="lbl">${esc(legName(t, l))} · ${esc(dayLabel(l.day))}</div>
<div class="times"><span>${esc(l.dep)}</span><span class="ln"></span><span>${esc(l.arr)}</span></div>
<div class="codes"><span>${esc(nameOf(l.from))} ${l.from}</span><span>${esc(nameOf(l.to))} ${l.to}</span></div>
<div class="meta">${esc(l.no)} · ${durText(l.dur)} · Direct</div>${acts}</div>`;
}

// ---------------------------------------------------------------- Home

const DEALS: readonly (readonly [string, string, string])[] = [
  ['NCE', 'Sunny Riviera weekends', '#e8590c'],
  ['LCY', 'Into the City in minutes', '#1c7ed6'],
  ['LIN', 'Milan, closest to the centre', '#2f9e44'],
  ['ORY', 'Paris in spring', '#c2255c'],
  ['OPO', 'Port wine and the Douro', '#7048e8'],
  ['DUB', 'A long weekend in Dublin', '#0c8599'],
];

function homePage(st: FlightsState, ctx: AppContext): AppResponse {
  const open = st.trips.flatMap((t) => t.legs.filter((l) => checkinOpen(l)).map((l) => ({ t, l }))).sort((a, b) => minutesUntil(a.l) - minutesUntil(b.l));
  const ciCard = ({ l }: { l: Leg }): string => {
    const all = l.pax.every((p) => p.checkedIn);
    return `<div class="ci" data-to="${esc(nameOf(l.to))}"><div class="info"><div class="n">${esc(nameOf(l.from))} → ${esc(nameOf(l.to))}</div><div class="s">${esc(whenText(l.day))}, ${esc(l.dep)} · ${esc(l.no)} · ${paxCount(l.pax.length)}</div></div>${
      all ? `<a class="btn line" href="${ctx.base}/boarding/${l.id}">Boarding passes</a>` : `<a class="btn" id="ci-${l.id}" href="${ctx.base}/checkin/${l.id}">Check in</a>`
    }</div>`;
  };
  const next = [...st.trips].sort((a, b) => tripFirstDay(a) - tripFirstDay(b))[0];
  const body = `${appbar('Zephra')}
<div class="hello"><h2>Hi ${esc(HOLDER.split(' ')[0] ?? '')}</h2><div class="d">Zephra Club Silver · ${st.points.toLocaleString('en-US')} points</div></div>
${open.length ? `<div class="section">Check-in is open</div>${open.map(ciCard).join('')}` : ''}
<div class="section">Quick actions</div>
<div class="quick">
<a id="qa-book" href="${ctx.base}/book"><span class="g">&#9992;</span>Book a flight</a>
<a id="qa-trips" href="${ctx.base}/trips"><span class="g">&#9776;</span>My trips</a>
<a id="qa-checkin" href="${ctx.base}/checkin"><span class="g">&#10003;</span>Check in</a>
</div>
${next ? `<div class="section">Your next trip</div><a class="tr" href="${ctx.base}/trip/${next.ref}"><div class="info"><div class="n">${esc(route(next))}</div><div class="s">${esc(tripDates(next))} · ${paxCount(next.pax.length)}</div></div><span class="go">&rsaquo;</span></a>` : ''}
<div class="section">Deals from Copenhagen</div>
${DEALS.map(([code, line, color]) => {
  const ap = airportOf(code)!;
  const from = Math.min(...flightsOf(code).map((f) => lightPrice(st.seed, f.no, 14)));
  return `<a class="deal" href="${ctx.base}/book?to=${code}"><div class="pic" style="background:${color}">${code}</div><div class="info"><div class="n">${esc(ap.name)}</div><div class="s">${esc(line)}</div></div><span class="p">from ${money(from)}</span></a>`;
}).join('')}
<div class="intro">One-way prices per adult on the Light fare, for travel in the next two months.</div>
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Zephra', css: CSS, body, ctx, root: true });
}

// ---------------------------------------------------------------- Book

const monthsCal = (id: string): string => {
  const months: { name: string; first: number; last: number }[] = [
    { name: 'June 2025', first: -1, last: 28 },
    { name: 'July 2025', first: 29, last: LAST_DAY },
  ];
  return months
    .map((m) => {
      const lead = ((m.first % 7) + 7) % 7;
      const cells: string[] = Array.from({ length: lead }, () => '<span></span>');
      for (let d = m.first; d <= m.last; d++)
        cells.push(`<button class="cd" data-d="${d}" aria-label="${esc(dayLabel(d))}"${d < 0 ? ' disabled' : ''} onclick="pickDay('${id}',${d})">${dayOfMonth(d)}</button>`);
      return `<div class="mon">${m.name}</div><div class="wk"><span>Mon</span><span>Tue</span><span>Wed</span><span>Thu</span><span>Fri</span><span>Sat</span><span>Sun</span></div><div class="cal">${cells.join('')}</div>`;
    })
    .join('');
};

function bookPage(ctx: AppContext, q: URLSearchParams): AppResponse {
  const preTo = DESTINATIONS.find((a) => a.code === (q.get('to') ?? '').toUpperCase());
  const names = Object.fromEntries(DESTINATIONS.map((a) => [a.code, a.name]));
  const days = Array.from({ length: LAST_DAY + 1 }, (_, d) => shortDay(d));
  const body = `${appbar('Book a flight')}
<div class="seg" id="g-trip" role="radiogroup"><button role="radio" aria-checked="true" data-v="return" onclick="pickTrip(this)">Return</button><button role="radio" aria-checked="false" data-v="one" onclick="pickTrip(this)">One way</button></div>
<div class="field" id="f-from"><label>From</label><button class="pick" id="from-btn" onclick="snack('Zephra flies from Copenhagen')"><span>Copenhagen</span><span class="code">CPH</span></button></div>
<div class="field" id="f-to"><label>To</label><button class="pick" id="to-btn" onclick="openTo()"><span id="to-v" class="${preTo ? '' : 'ph'}">${esc(preTo?.name ?? 'Where to?')}</span><span class="code" id="to-c">${preTo?.code ?? ''}</span></button><div class="ferr" id="e-to"></div></div>
<div class="twin"><div class="field" id="f-day"><label>Depart</label><button class="pick" id="day-btn" onclick="show('depcal')"><span id="day-v">${esc(shortDay(1))}</span><span>&#9662;</span></button><div class="ferr" id="e-day"></div></div>
<div class="field" id="f-ret"><label>Return</label><button class="pick" id="ret-btn" onclick="show('retcal')"><span id="ret-v" class="ph">Add date</span><span>&#9662;</span></button><div class="ferr" id="e-ret"></div></div></div>
<div class="field" id="f-adults"><label>Passengers</label><div class="stepper"><button id="ad-minus" aria-label="Fewer adults" onclick="adults(-1)">&minus;</button><span class="val" id="ad-v">1</span><button id="ad-plus" aria-label="More adults" onclick="adults(1)">+</button><span class="muted">Adults (16+)</span></div><div class="hint">Travelling with children? Call us on ${esc(SUPPORT_PHONE)}.</div></div>
<button class="primary" id="search" onclick="go()">Search flights</button>
<div class="intro">Prices include taxes and charges. Checked bags and seats can be added after booking.</div>
<div class="spacer"></div>${bottomNav(ctx, 'book')}${menu(ctx)}
<div id="todlg" class="full" data-overlay hidden role="dialog" aria-label="Where to?"><div class="top"><button class="x" aria-label="Close" onclick="hide('todlg')">&times;</button><h2>Where to?</h2></div>
<div class="q"><input id="to-q" type="text" placeholder="Search city or airport" autocomplete="off" oninput="filt(this.value)"></div>
<div class="list" id="to-list">${DESTINATIONS.map(
    (a) => `<button class="ap" data-v="${a.code}" data-name="${esc(a.name)}" data-k="${esc(`${a.name} ${a.code} ${a.country}`.toLowerCase())}" onclick="pickTo(this)"><span class="code">${a.code}</span><div class="info"><div class="n">${esc(a.name)}</div><div class="s">${esc(a.country)}</div></div></button>`,
  ).join('')}<div class="empty" id="to-none" hidden>No airports match</div></div></div>
<div id="depcal" class="full" data-overlay hidden role="dialog" aria-label="Departure date"><div class="top"><button class="x" aria-label="Close" onclick="hide('depcal')">&times;</button><h2>Departure date</h2></div><div class="list">${monthsCal('depcal')}</div></div>
<div id="retcal" class="full" data-overlay hidden role="dialog" aria-label="Return date"><div class="top"><button class="x" aria-label="Close" onclick="hide('retcal')">&times;</button><h2>Return date</h2></div><div class="list">${monthsCal('retcal')}</div></div>`;
  const script = `${snackJs}
const NAMES=${JSON.stringify(names)},DAYS=${JSON.stringify(days)};
const V={trip:'return',to:${JSON.stringify(preTo?.code ?? '')},day:1,ret:-1,adults:1};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function err(k,m){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}
function paint(){for(const b of document.querySelectorAll('#g-trip button'))b.setAttribute('aria-checked',String(b.dataset.v===V.trip));
 document.getElementById('f-ret').hidden=V.trip!=='return';
 document.getElementById('day-v').textContent=DAYS[V.day];
 const r=document.getElementById('ret-v');r.textContent=V.ret>=0?DAYS[V.ret]:'Add date';r.classList.toggle('ph',V.ret<0);
 document.getElementById('ad-v').textContent=V.adults;document.getElementById('ad-minus').disabled=V.adults<=1;document.getElementById('ad-plus').disabled=V.adults>=${MAX_ADULTS};
 for(const id of ['depcal','retcal'])for(const b of document.querySelectorAll('#'+id+' .cd')){const d=Number(b.dataset.d);b.classList.toggle('sel',d===(id==='depcal'?V.day:V.ret));b.disabled=d<0||(id==='retcal'&&d<V.day)}}
function pickTrip(el){V.trip=el.dataset.v;clr('ret');paint()}
function openTo(){document.getElementById('to-q').value='';filt('');show('todlg')}
function filt(q){q=q.trim().toLowerCase();let n=0;for(const b of document.querySelectorAll('#to-list .ap')){const on=!q||b.dataset.k.includes(q);b.hidden=!on;if(on)n++}document.getElementById('to-none').hidden=n>0}
function pickTo(el){V.to=el.dataset.v;const v=document.getElementById('to-v');v.textContent=el.dataset.name;v.classList.remove('ph');document.getElementById('to-c').textContent=V.to;clr('to');hide('todlg')}
function pickDay(id,d){if(id==='depcal'){V.day=d;if(V.ret>=0&&V.ret<d)V.ret=-1;clr('day')}else{if(d<V.day)return;V.ret=d;clr('ret')}paint();hide(id)}
function adults(n){V.adults=Math.max(1,Math.min(${MAX_ADULTS},V.adults+n));paint()}
function go(){clr('to');clr('ret');let bad=false;if(!V.to){err('to','Choose where you are flying to');bad=true}
 if(V.trip==='return'&&V.ret<0){err('ret','Choose a return date');bad=true}
 if(bad)return;location.href=BASE+'/results?to='+V.to+'&day='+V.day+'&ret='+(V.trip==='return'?V.ret:-1)+'&adults='+V.adults}
paint();`;
  return renderPage({ title: 'Book a flight', css: CSS, body, ctx, script, root: true });
}

// ---------------------------------------------------------------- Results, fares, review

const intOf = (v: string | null, dflt: number): number => {
  if (v === null || v.trim() === '') return dflt;
  const n = Number(v);
  return Number.isInteger(n) ? n : NaN;
};
function searchOf(q: URLSearchParams): Search | undefined {
  const s: Search = { to: (q.get('to') ?? '').toUpperCase(), day: intOf(q.get('day'), NaN), ret: intOf(q.get('ret'), -1), adults: intOf(q.get('adults'), 1) };
  if (!DESTINATIONS.some((a) => a.code === s.to)) return undefined;
  if (!(s.day >= 0 && s.day <= LAST_DAY) || !(s.ret === -1 || (s.ret >= s.day && s.ret <= LAST_DAY)) || !(s.adults >= 1 && s.adults <= MAX_ADULTS)) return undefined;
  return s;
}
const searchQs = (s: Search): string => `to=${s.to}&day=${s.day}&ret=${s.ret}&adults=${s.adults}`;
const pickOf = (v: string | null, flights: readonly Scheduled[]): { f: Scheduled; fare: string } | undefined => {
  const [no, fare] = (v ?? '').split('.');
  const f = flights.find((x) => x.no.replace(' ', '') === (no ?? '').replace(' ', ''));
  return f && fare && FARE_NAMES.includes(fare) ? { f, fare } : undefined;
};
const pickQs = (f: Scheduled, fare: string): string => `${f.no.replace(' ', '')}.${fare}`;
const closedAt = (day: number, f: Scheduled): boolean => day === 0 && minutesOf(f.dep) - NOW_MIN < 120;
const adultsText = (n: number): string => `${n} adult${n === 1 ? '' : 's'}`;

function resultsPage(st: FlightsState, ctx: AppContext, s: Search, q: URLSearchParams): AppResponse {
  const back = q.get('leg') === 'back' && s.ret >= 0;
  const outPick = pickOf(q.get('out'), flightsOf(s.to));
  if (back && !outPick) return { status: 303, redirect: `${ctx.base}/results?${searchQs(s)}` };
  const day = back ? s.ret : s.day;
  const flights = flightsOf(s.to, back);
  const title = back ? `${nameOf(s.to)} → ${nameOf(HOME)}` : `${nameOf(HOME)} → ${nameOf(s.to)}`;
  const head = `<div class="hero"><h2>${esc(title)}</h2><div class="s">${s.ret >= 0 ? 'Return' : 'One way'} · ${adultsText(s.adults)}${s.ret >= 0 ? ` · ${esc(shortDay(s.day))} – ${esc(shortDay(s.ret))}` : ''}</div></div>`;
  const strip: string[] = [];
  const lo = Math.max(back ? s.day : 0, Math.min(day - 2, LAST_DAY - 4));
  for (let d = lo; d <= Math.min(LAST_DAY, lo + 4); d++) {
    const price = Math.min(...flights.filter((f) => !closedAt(d, f)).map((f) => lightPrice(st.seed, f.no, d)));
    const next = back ? { ...s, ret: d } : { ...s, day: d, ret: s.ret >= 0 && s.ret < d ? d : s.ret };
    const extra = back && outPick ? `&leg=back&out=${pickQs(outPick.f, outPick.fare)}` : '';
    strip.push(
      `<button class="${d === day ? 'on' : ''}" data-d="${esc(dayLabel(d))}" onclick="location.replace(BASE+'/results?${searchQs(next)}${extra}')">${esc(weekdayOf(d).slice(0, 3))}<b>${dayOfMonth(d)} ${esc(monthShort(d))}</b><span class="pr">${Number.isFinite(price) ? money(price * s.adults) : '—'}</span></button>`,
    );
  }
  const fareSheet = (f: Scheduled): string => {
    const id = `fs-${f.no.replace(' ', '')}`;
    const next = (fare: string): string =>
      back && outPick
        ? `${ctx.base}/review?${searchQs(s)}&out=${pickQs(outPick.f, outPick.fare)}&back=${pickQs(f, fare)}`
        : s.ret >= 0
          ? `${ctx.base}/results?${searchQs(s)}&leg=back&out=${pickQs(f, fare)}`
          : `${ctx.base}/review?${searchQs(s)}&out=${pickQs(f, fare)}`;
    return `<div id="${id}" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('${id}')" style="align-items:flex-end"><div class="sheet2" role="dialog" aria-label="Select a fare">
<div class="hd"><h2>Select a fare</h2><div class="s">${esc(f.no)} · ${esc(f.dep)} → ${esc(f.arr)} · ${esc(shortDay(day))}</div></div>
${FARES.map(
  (fare) =>
    `<div class="fare" data-fare="${fare.name}"><div class="top"><span class="nm">${fare.name}</span><span class="pr">${money(farePrice(st.seed, f.no, day, fare.name) * s.adults)}</span></div><ul>${fare.perks.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>
<a class="btn" id="sel-${f.no.replace(' ', '')}-${fare.name}" href="${next(fare.name)}">Select ${fare.name}</a></div>`,
).join('')}
<button class="secondary" onclick="hide('${id}')">Cancel</button></div></div>`;
  };
  const row = (f: Scheduled): string => {
    const closed = closedAt(day, f);
    return `<button class="res${closed ? ' closed' : ''}" data-dep="${esc(f.dep)}" data-no="${esc(f.no)}" onclick="${closed ? "snack('This flight has closed for booking')" : `show('fs-${f.no.replace(' ', '')}')`}">
<div class="row1"><span>${esc(f.dep)}</span><span class="ln"></span><span>${esc(f.arr)}${f.nextDay ? '<sup>+1</sup>' : ''}</span></div>
<div class="row2"><span>${f.from} – ${f.to} · ${durText(f.dur)} · Direct · ${esc(f.no)}</span></div>
<div class="row2"><span>${closed ? 'Closed' : 'Seats available'}</span><span class="from">${closed ? '' : `from ${money(lightPrice(st.seed, f.no, day) * s.adults)}`}</span></div></button>`;
  };
  const chosen = back && outPick ? `<div class="card"><div class="d"><b>Outbound:</b> ${esc(shortDay(s.day))} · ${esc(outPick.f.dep)} → ${esc(outPick.f.arr)} · ${esc(outPick.fare)}</div></div>` : '';
  const body = `${appbar(back ? 'Return flight' : 'Select flight', { back: true })}
${head}
<div class="strip" id="strip">${strip.join('')}</div>${chosen}
<div class="section">Choose your ${back ? 'return' : 'outbound'} flight</div>
<div class="intro">${esc(dayLabel(day))}</div>
${flights.map(row).join('')}
<div class="intro">Times are local. Prices are for ${adultsText(s.adults)}, taxes included.</div>
<div class="spacer"></div>${menu(ctx)}
${flights.map(fareSheet).join('')}`;
  return renderPage({ title, css: CSS, body, ctx, script: snackJs });
}

function reviewPage(st: FlightsState, ctx: AppContext, s: Search, q: URLSearchParams): AppResponse {
  const out = pickOf(q.get('out'), flightsOf(s.to));
  const back = s.ret >= 0 ? pickOf(q.get('back'), flightsOf(s.to, true)) : undefined;
  if (!out || (s.ret >= 0 && !back)) return { status: 303, redirect: `${ctx.base}/results?${searchQs(s)}` };
  const legs = [{ f: out.f, fare: out.fare, day: s.day, label: s.ret >= 0 ? 'Outbound' : 'One way' }, ...(back ? [{ f: back.f, fare: back.fare, day: s.ret, label: 'Return' }] : [])];
  const total = legs.reduce((sum, l) => sum + farePrice(st.seed, l.f.no, l.day, l.fare), 0) * s.adults;
  const legHtml = legs
    .map(
      (l) => `<div class="fl"><div class="lbl">${l.label} · ${esc(dayLabel(l.day))}</div><div class="times"><span>${esc(l.f.dep)}</span><span class="ln"></span><span>${esc(l.f.arr)}</span></div>
<div class="codes"><span>${esc(nameOf(l.f.from))} ${l.f.from}</span><span>${esc(nameOf(l.f.to))} ${l.f.to}</span></div><div class="meta">${esc(l.f.no)} · ${durText(l.f.dur)} · ${esc(l.fare)} fare</div></div>`,
    )
    .join('');
  const extra = Array.from(
    { length: s.adults - 1 },
    (_, i) => `<div class="field" id="f-n${i}"><label for="n${i}">Passenger ${i + 2}: full name (as on passport)</label><input id="n${i}" class="pname" type="text" autocomplete="off" placeholder="First and last name"></div>`,
  ).join('');
  const body = `${appbar('Review and pay', { back: true, menu: false })}
<div class="section">Flights</div>${legHtml}
<div class="section">Passengers</div>
<div class="px">${paxAvatar(personOf(st, 'freya')!)}<div class="info"><div class="n">${esc(HOLDER)} (you)</div><div class="s">Adult · ${esc(HOLDER_EMAIL)}</div></div></div>${extra}
<div class="section">Price</div>
${legs.map((l) => `<div class="sum"><span class="k">${l.label}, ${esc(l.fare)} × ${s.adults}</span><span class="v">${money(farePrice(st.seed, l.f.no, l.day, l.fare) * s.adults)}</span></div>`).join('')}
<div class="sum total"><span class="k"><b>Total</b></span><span class="v" id="total">${money(total)}</span></div>
<div class="sum"><span class="k">Pay with</span><span class="v">${esc(CARD)}</span></div>
<div class="section">Fare rules</div>
<button class="tick" id="rules" role="checkbox" aria-checked="false" onclick="tog(this)"><span class="box">&#10003;</span><div class="info">I accept the fare rules and the conditions of carriage</div></button>
<div class="error" id="err"></div>
<button class="primary" id="pay" onclick="pay()">Pay ${money(total)}</button>
<div class="spacer"></div>`;
  const script = `function tog(el){el.setAttribute('aria-checked',String(el.getAttribute('aria-checked')!=='true'));el.classList.remove('bad');document.getElementById('err').textContent=''}
let busy=false;function pay(){if(busy)return;const rules=document.getElementById('rules').getAttribute('aria-checked')==='true';const names=[...document.querySelectorAll('.pname')].map(i=>i.value);
 busy=true;api('book',Object.assign(${JSON.stringify({ to: s.to, day: s.day, ret: s.ret, adults: s.adults, out: out.f.no, outFare: out.fare, back: back?.f.no ?? '', backFare: back?.fare ?? '' })},{names,rules})).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/trip/'+x.ref+'?t=booked');return}
 document.getElementById('err').textContent=x.error||'Something went wrong';if(!rules)document.getElementById('rules').classList.add('bad')})}`;
  return renderPage({ title: 'Review and pay', css: CSS, body, ctx, script });
}

// ---------------------------------------------------------------- Trips

function tripsPage(st: FlightsState, ctx: AppContext): AppResponse {
  const trips = [...st.trips].sort((a, b) => tripFirstDay(a) - tripFirstDay(b) || minutesOf(a.legs[0]?.dep ?? '') - minutesOf(b.legs[0]?.dep ?? ''));
  const row = (t: Trip): string =>
    `<a class="tr" href="${ctx.base}/trip/${t.ref}" data-to="${esc(nameOf(tripDest(t)))}"><div class="info"><div class="n">${esc(route(t))}</div><div class="s">${t.legs.length > 1 ? 'Return' : 'One way'} · ${esc(tripDates(t))} · ${paxCount(t.pax.length)}</div><div class="ref">Booking ref ${t.ref}</div></div>${
      t.legs.some((l) => checkinOpen(l)) ? '<span class="badge ok">Check-in open</span>' : ''
    }<span class="go">&rsaquo;</span></a>`;
  const body = `${appbar('My trips')}
<div class="section">Upcoming</div>
${trips.map(row).join('')}
<div class="section">Past</div>
${PAST_TRIPS.map(([r, d, who]) => `<div class="tr past"><div class="info"><div class="n">${esc(r)}</div><div class="s">${esc(d)} · ${esc(who)}</div></div><span class="badge grey">Completed</span></div>`).join('')}
<div class="intro">Booked through a travel agent? Add it with the booking reference on the website.</div>
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}`;
  return renderPage({ title: 'My trips', css: CSS, body, ctx, root: true });
}

function tripPage(st: FlightsState, ctx: AppContext, t: Trip, q: URLSearchParams): AppResponse {
  const kind = q.get('t') ?? '';
  let banner = '';
  if (kind === 'booked' && !t.seeded) banner = `<div class="card ok"><h2>Booking confirmed</h2><div class="d">Booking ref ${t.ref}. We've emailed the receipt to ${esc(HOLDER_EMAIL)}.</div></div>`;
  if (kind === 'seat') {
    const hit = legOf(st, q.get('leg') ?? '');
    const p = personOf(st, q.get('pax') ?? '');
    const pl = hit && p ? paxLeg(hit.leg, p.id) : undefined;
    if (hit && p && pl) banner = `<div class="card ok"><h2>Seat confirmed</h2><div class="d">${esc(p.first)}: seat ${esc(pl.seat)} on ${esc(hit.leg.no)} to ${esc(nameOf(hit.leg.to))}, ${esc(shortDay(hit.leg.day))}.</div></div>`;
  }
  if (kind === 'bags') {
    const ids = (q.get('ids') ?? '').split(',').map(Number);
    const bags = liveBags(t).filter((b) => ids.includes(b.id));
    if (bags.length)
      banner = `<div class="card ok"><h2>Bags added</h2><div class="d">${bags.map((b) => `${esc(personOf(st, b.pax)?.first ?? '')}: 1 × ${esc(b.weight)} checked bag`).join('<br>')}. They travel on every flight of this trip.</div></div>`;
  }
  const paxRow = (id: string): string => {
    const p = personOf(st, id)!;
    const seats = t.legs.map((l) => `${t.legs.length > 1 ? (l.id.endsWith('-out') ? 'Out ' : 'Back ') : 'Seat '}${paxLeg(l, id)?.seat || '—'}`).join(' · ');
    const bags = paidBags(t, id);
    return `<div class="px" data-pax="${esc(p.first)}">${paxAvatar(p)}<div class="info"><div class="n">${esc(fullName(p))}</div><div class="s">${esc(paxType(p))} · ${esc(seats)}</div><div class="s">${bags.length ? `${bags.length} checked bag${bags.length > 1 ? 's' : ''} (${bags.map((b) => esc(b.weight)).join(', ')})` : 'No checked bags'}</div></div></div>`;
  };
  const body = `${appbar(`Trip to ${nameOf(tripDest(t))}`, { back: true })}${banner}
<div class="hero"><h2>${esc(route(t))}</h2><div class="s">Booking ref ${t.ref} · ${esc(t.fare)} fare · ${paxCount(t.pax.length)}</div></div>
<div class="section">Flights</div>
${t.legs.map((l) => legCard(t, l, ctx, true)).join('')}
<div class="section">Passengers</div>
${t.pax.map(paxRow).join('')}
<div class="section">Manage booking</div>
<a class="mrow" id="bags-row" href="${ctx.base}/bags/${t.ref}"><div class="info"><div class="t">Bags</div><div class="s">Add checked bags for everyone on this trip</div></div><span class="go">&rsaquo;</span></a>
<div class="mrow"><div class="info"><div class="t">Meals and drinks</div><div class="s">Buy on board with card or the app</div></div></div>
<div class="mrow"><div class="info"><div class="t">Change or cancel</div><div class="s">Call us on ${esc(SUPPORT_PHONE)}</div></div></div>
<div class="mrow"><div class="info"><div class="t">Receipt</div><div class="s">${money(t.total)} paid with ${esc(CARD)}</div></div></div>
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}
${banner ? toast(kind === 'booked' ? 'Booking confirmed' : kind === 'seat' ? 'Seat confirmed' : 'Bags added') : ''}`;
  return renderPage({ title: `Trip ${t.ref}`, css: CSS, body, ctx });
}

// ---------------------------------------------------------------- Seats

function seatsPage(st: FlightsState, ctx: AppContext, t: Trip, l: Leg, paxId: string): AppResponse {
  const cur = paxLeg(l, paxId) ?? l.pax[0]!;
  const me = personOf(st, cur.pax)!;
  const others = new Map(l.pax.filter((p) => p.pax !== cur.pax && p.seat).map((p) => [p.seat, personOf(st, p.pax)?.first ?? '']));
  const taken = new Set(l.taken);
  const seatBtn = (seat: string): string => {
    const zone = seatZone(seat);
    const cls = ['st', zone === 'Front' ? 'fr' : zone === 'Extra legroom' ? 'xl' : ''];
    let label = seat.slice(-1);
    let state = 'free';
    if (taken.has(seat)) {
      cls.push('tk');
      state = 'taken';
    } else if (others.has(seat)) {
      cls.push('co');
      label = (others.get(seat) ?? '')[0] ?? '';
      state = `${others.get(seat)}'s seat`;
    } else if (seat === cur.seat) {
      cls.push('me');
      label = '&#10003;';
      state = `${me.first}'s seat`;
    }
    const fee = seatFee(seat);
    return `<button class="${cls.filter(Boolean).join(' ')}" data-seat="${seat}" data-state="${state === 'free' ? 'free' : state === 'taken' ? 'taken' : 'held'}" aria-label="${seat}, ${seatKind(seat)}, ${esc(state)}${fee ? `, €${fee}` : ''}" onclick="tapSeat(this)">${label}</button>`;
  };
  const zoneLine = (row: number): string =>
    row === 1 ? '<div class="zone">Front · €18</div>' : row === 4 ? '<div class="zone">Standard · Free</div>' : row === 11 ? '<div class="zone">Exit rows · Extra legroom · €24</div>' : row === 13 ? '<div class="zone">Standard · Free</div>' : '';
  const grid = ROWS.map(
    (r) => `${zoneLine(r)}<div class="srow" data-row="${r}">${LETTERS.slice(0, 3)
      .map((x) => seatBtn(`${r}${x}`))
      .join('')}<span class="rn">${r}</span>${LETTERS.slice(3)
      .map((x) => seatBtn(`${r}${x}`))
      .join('')}</div>`,
  ).join('');
  const body = `${appbar('Choose seats', { back: true, menu: false })}
<div class="hero"><h2>${esc(nameOf(l.from))} → ${esc(nameOf(l.to))}</h2><div class="s">${esc(legName(t, l))} · ${esc(shortDay(l.day))} · ${esc(l.dep)} · ${esc(l.no)}</div></div>
<div class="paxbar" id="paxbar">${l.pax
    .map((p) => {
      const pp = personOf(st, p.pax)!;
      return `<button class="${p.pax === cur.pax ? 'on' : ''}" data-pax="${esc(pp.first)}" onclick="location.replace(BASE+'/seats/${l.id}?pax=${p.pax}')">${esc(pp.first)}<span>${p.seat ? `Seat ${p.seat}` : 'No seat yet'}</span></button>`;
    })
    .join('')}</div>
<div class="legend"><span><i></i>Free</span><span><i class="tk"></i>Taken</span><span><i class="fr"></i>Front €18</span><span><i class="xl"></i>Extra legroom €24</span><span><i class="me"></i>${esc(me.first)}</span></div>
<div class="cabin"><div class="cols"><span>A</span><span>B</span><span>C</span><span></span><span>D</span><span>E</span><span>F</span></div>${grid}</div>
<div class="intro">Seats are for ${esc(legName(t, l).toLowerCase())} flight ${esc(l.no)} only. Without a seat, one is given free at check-in.</div>
<div style="height:150px"></div>
<div class="bar"><div class="info"><div class="n">${esc(fullName(me))}</div><div class="s" id="sel-v">${cur.seat ? `Seat ${esc(cur.seat)}` : 'No seat yet'}</div></div><button class="btn" id="confirm" onclick="confirmSeat()">Confirm seat</button></div>
<div id="paydlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Confirm seat payment"><h2>Confirm seat payment</h2><p id="paydlg-text"></p><div class="error" id="payerr"></div>
<div class="acts"><button onclick="hide('paydlg')">Cancel</button><button id="pay-ok" onclick="save()"></button></div></div></div>`;
  const script = `${snackJs}
const CUR=${JSON.stringify(cur.seat)},WHO=${JSON.stringify(me.first)};let SEL='';
const FEE=s=>{const r=parseInt(s,10);return r<=3?18:(r===11||r===12)?24:0};
const ZONE=s=>{const r=parseInt(s,10);return r<=3?'Front':(r===11||r===12)?'Extra legroom':'Standard'};
function tapSeat(el){const s=el.dataset.seat;if(el.dataset.state==='taken'){snack('Seat '+s+' is taken');return}
 if(el.dataset.state==='held'&&s!==CUR){snack(el.getAttribute('aria-label').split(', ')[2].replace("'s seat",'')+' is in seat '+s);return}
 const prev=document.querySelector('.st.me');if(prev){prev.classList.remove('me');prev.innerHTML=prev.dataset.seat.slice(-1)}
 const old=CUR&&document.querySelector('.st[data-seat="'+CUR+'"]');if(old){old.classList.toggle('old',s!==CUR)}
 el.classList.add('me');el.innerHTML='&#10003;';SEL=s===CUR?'':s;
 document.getElementById('sel-v').textContent=SEL?('New seat '+SEL+' · '+ZONE(SEL)+' · '+(FEE(SEL)?'€'+FEE(SEL):'Free')):(CUR?'Seat '+CUR:'No seat yet')}
function confirmSeat(){if(!SEL){snack('Tap a free seat first');return}const f=FEE(SEL);
 if(f){document.getElementById('paydlg-text').textContent='Seat '+SEL+' ('+ZONE(SEL).toLowerCase()+') for '+WHO+' costs €'+f+'. It will be charged to ${esc(CARD)}.';document.getElementById('pay-ok').textContent='Pay €'+f;document.getElementById('payerr').textContent='';show('paydlg');return}
 save()}
let busy=false;function save(){if(busy)return;busy=true;api('seat',{leg:${JSON.stringify(l.id)},pax:${JSON.stringify(cur.pax)},seat:SEL}).then(x=>{busy=false;
 if(x.ok){location.replace(BASE+'/trip/${t.ref}?t=seat&leg=${l.id}&pax=${cur.pax}');return}
 if(!document.getElementById('paydlg').hidden)document.getElementById('payerr').textContent=x.error||'Could not save';else snack(x.error||'Could not save')})}`;
  return renderPage({ title: 'Choose seats', css: CSS, body, ctx, script });
}

// ---------------------------------------------------------------- Bags

const cabinText = (fare: string): string => (fare === 'Light' ? 'Under-seat bag included' : 'Under-seat bag and 8 kg cabin bag included');

function bagsPage(st: FlightsState, ctx: AppContext, t: Trip, kind: string): AppResponse {
  const inBasket = basket(t);
  const sum = inBasket.reduce((n, b) => n + b.price, 0);
  const paxCard = (id: string): string => {
    const p = personOf(st, id)!;
    const paid = paidBags(t, id);
    const pending = inBasket.filter((b) => b.pax === id);
    const full = paid.length + pending.length >= MAX_BAGS;
    return `<div class="bg" data-pax="${esc(p.first)}"><div class="top">${paxAvatar(p)}<div class="info"><div class="n">${esc(fullName(p))}</div><div class="s">${paid.length ? `Checked: ${paid.map((b) => `1 × ${esc(b.weight)}`).join(', ')}` : 'No checked bags'}</div></div>${
      full ? '<span class="badge grey">Maximum</span>' : `<button class="btn line" id="add-${id}" onclick="openBag('${id}')">Add bag</button>`
    }</div><div class="inc">${esc(cabinText(t.fare))}</div></div>`;
  };
  const sheet = (id: string): string => {
    const p = personOf(st, id)!;
    return `<div id="bs-${id}" class="scrim bottom" data-overlay hidden onclick="if(event.target===this)hide('bs-${id}')"><div class="sheet" role="dialog" aria-label="Add a checked bag"><div class="t">Add a checked bag for ${esc(p.first)}</div>
<div class="sub">One bag, up to 158 cm (length + width + height), on every flight of this trip.</div>
${BAG_OPTIONS.map(([w, price]) => `<button class="bopt" role="radio" aria-checked="${w === BAG_DEFAULT}" data-w="${w}" onclick="pickW('${id}',this)"><span class="rad"></span><div class="info"><div class="n">${w}</div><div class="s">${w === BAG_DEFAULT ? 'Most popular' : w === '32 kg' ? 'Heavy bag' : w === '15 kg' ? 'Light bag' : 'Standard bag'}</div></div><span class="pr">${money(price)}</span></button>`).join('')}
<div class="err" id="bs-${id}-err"></div>
<button class="primary" id="bs-${id}-ok" onclick="addBag('${id}')">Add to basket</button></div></div>`;
  };
  const body = `${appbar('Bags', { back: true, menu: false })}
<div class="hero"><h2>${esc(route(t))}</h2><div class="s">Booking ref ${t.ref} · ${esc(tripDates(t))}</div></div>
<div class="intro">Checked bags are cheaper here than at the airport. Prices are per bag for the whole trip${t.legs.length > 1 ? ', there and back' : ''}. Up to ${MAX_BAGS} bags each.</div>
<div class="section">Checked bags</div>
${t.pax.map(paxCard).join('')}
${inBasket.length ? `<div class="section">In your basket</div>${inBasket.map((b) => `<div class="bk" data-pax="${esc(personOf(st, b.pax)?.first ?? '')}" data-w="${esc(b.weight)}"><div class="info"><div class="n">${esc(personOf(st, b.pax)?.first ?? '')} · 1 × ${esc(b.weight)}</div><div class="s">${money(b.price)}</div></div><button class="rm" id="rm-${b.id}" onclick="removeBag(${b.id})">Remove</button></div>`).join('')}` : ''}
<div style="height:150px"></div>
${inBasket.length ? `<div class="bar"><div class="info"><div class="n">Total ${money(sum)}</div><div class="s">${inBasket.length} bag${inBasket.length > 1 ? 's' : ''} in basket</div></div><button class="btn" id="pay" onclick="show('paydlg')">Pay ${money(sum)}</button></div>` : ''}
${t.pax.map(sheet).join('')}
<div id="paydlg" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Confirm payment"><h2>Confirm payment</h2><p>${money(sum)} for ${inBasket.length} checked bag${inBasket.length > 1 ? 's' : ''} will be charged to ${esc(CARD)}.</p><div class="error" id="payerr"></div>
<div class="acts"><button onclick="hide('paydlg')">Cancel</button><button id="pay-ok" onclick="pay()">Pay ${money(sum)}</button></div></div></div>
${kind === 'added' ? toast('Added to basket') : kind === 'removed' ? toast('Removed from basket') : ''}`;
  const script = `${snackJs}
const W={};function openBag(p){W[p]='${BAG_DEFAULT}';for(const b of document.querySelectorAll('#bs-'+p+' .bopt'))b.setAttribute('aria-checked',String(b.dataset.w===W[p]));document.getElementById('bs-'+p+'-err').textContent='';show('bs-'+p)}
function pickW(p,el){W[p]=el.dataset.w;for(const b of document.querySelectorAll('#bs-'+p+' .bopt'))b.setAttribute('aria-checked',String(b===el))}
let busy=false;
function addBag(p){if(busy)return;busy=true;api('bag_add',{ref:${JSON.stringify(t.ref)},pax:p,weight:W[p]||'${BAG_DEFAULT}'}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/bags/${t.ref}?t=added');return}document.getElementById('bs-'+p+'-err').textContent=x.error||'Could not add'})}
function removeBag(id){if(busy)return;busy=true;api('bag_remove',{ref:${JSON.stringify(t.ref)},id}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/bags/${t.ref}?t=removed');return}snack(x.error||'Could not remove')})}
function pay(){if(busy)return;busy=true;api('bags_pay',{ref:${JSON.stringify(t.ref)}}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/trip/${t.ref}?t=bags&ids='+x.ids.join(','));return}document.getElementById('payerr').textContent=x.error||'Payment failed'})}`;
  return renderPage({ title: 'Bags', css: CSS, body, ctx, script });
}

// ---------------------------------------------------------------- Check-in

function checkinListPage(st: FlightsState, ctx: AppContext): AppResponse {
  const legs = st.trips.flatMap((t) => t.legs.map((l) => ({ t, l }))).filter(({ l }) => minutesUntil(l) > 60).sort((a, b) => minutesUntil(a.l) - minutesUntil(b.l));
  const open = legs.filter(({ l }) => checkinOpen(l));
  const soon = legs.filter(({ l }) => !checkinOpen(l)).slice(0, 4);
  const body = `${appbar('Check in', { back: true })}
<div class="intro">Online check-in opens 48 hours before departure and closes 1 hour before.</div>
<div class="section">Open for check-in</div>
${open.length ? open.map(({ t, l }) => legCard(t, l, ctx, true)).join('') : '<div class="intro">No flights are open for check-in right now.</div>'}
<div class="section">Opening soon</div>
${soon.map(({ t, l }) => legCard(t, l, ctx, false).replace('</div></div>', `</div><div class="note">Opens ${esc(checkinOpensText(l))} · ${paxCount(l.pax.length)}</div></div>`)).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'home')}${menu(ctx)}`;
  return renderPage({ title: 'Check in', css: CSS, body, ctx });
}

function checkinPage(st: FlightsState, ctx: AppContext, t: Trip, l: Leg): AppResponse {
  const row = (id: string): string => {
    const p = personOf(st, id)!;
    const pl = paxLeg(l, id)!;
    const done = pl.checkedIn;
    return `<button class="tick" role="checkbox" id="ck-${id}" data-pax="${esc(p.first)}" data-id="${id}" aria-checked="${!done}"${done ? ' aria-disabled="true"' : ''} onclick="tog(this)"><span class="box">&#10003;</span><div class="info"><div class="n">${esc(fullName(p))}</div><div class="s">${esc(paxType(p))} · ${done ? 'Checked in' : pl.seat ? `Seat ${esc(pl.seat)}` : 'Seat given at check-in'}</div></div></button>`;
  };
  const left = l.pax.filter((p) => !p.checkedIn).length;
  const body = `${appbar('Check in', { back: true, menu: false })}
${legCard(t, l, ctx, false)}
<div class="section">Who's checking in?</div>
${t.pax.map(row).join('')}
<div class="ferr" id="e-pax" style="padding:6px 16px"></div>
<div class="section">Travel documents</div>
<div class="dg">Passport details are on file for everyone on this booking. Bring the same passport to the airport.</div>
<div class="section">Dangerous goods</div>
<div class="dg">Lithium batteries over 160 Wh, flammable liquids, gas canisters, fireworks and other dangerous goods are not allowed in any bag. Power banks go in the cabin only.</div>
<button class="tick" role="checkbox" id="dg" aria-checked="false" onclick="tog(this)" style="margin-top:8px"><span class="box">&#10003;</span><div class="info">I have read the dangerous goods rules and no one is carrying prohibited items</div></button>
<div class="ferr" id="e-dg" style="padding:6px 16px"></div>
<div class="error" id="err"></div>
<button class="primary" id="submit" onclick="submit()">${left ? `Check in ${paxCount(left)}` : 'Everyone is checked in'}</button>
<div class="spacer"></div>`;
  const script = `function count(){return [...document.querySelectorAll('.tick[data-id]')].filter(b=>b.getAttribute('aria-checked')==='true'&&b.getAttribute('aria-disabled')!=='true').length}
function tog(el){if(el.getAttribute('aria-disabled')==='true')return;el.setAttribute('aria-checked',String(el.getAttribute('aria-checked')!=='true'));
 for(const k of ['pax','dg','err'])document.getElementById(k==='err'?'err':'e-'+k).textContent='';
 const n=count();document.getElementById('submit').textContent=n?'Check in '+n+' passenger'+(n===1?'':'s'):'Check in'}
let busy=false;function submit(){if(busy)return;const pax=[...document.querySelectorAll('.tick[data-id]')].filter(b=>b.getAttribute('aria-checked')==='true'&&b.getAttribute('aria-disabled')!=='true').map(b=>b.dataset.id);
 const dg=document.getElementById('dg').getAttribute('aria-checked')==='true';busy=true;
 api('checkin',{leg:${JSON.stringify(l.id)},pax,dg}).then(x=>{busy=false;if(x.ok){location.replace(BASE+'/boarding/${l.id}?t=done');return}
 const e=x.errors||{};document.getElementById('e-pax').textContent=e.pax||'';document.getElementById('e-dg').textContent=e.dg||'';document.getElementById('err').textContent=x.error||'';
 const first=document.getElementById(e.pax?'e-pax':'e-dg');if(first)first.scrollIntoView({block:'center'})})}`;
  return renderPage({ title: 'Check in', css: CSS, body, ctx, script });
}

function boardingPage(st: FlightsState, ctx: AppContext, t: Trip, l: Leg, kind: string): AppResponse {
  const done = l.pax.filter((p) => p.checkedIn);
  const notYet = l.pax.filter((p) => !p.checkedIn);
  const boarding = timeText(minutesOf(l.dep) - 30);
  const pass = (pl: (typeof l.pax)[number]): string => {
    const p = personOf(st, pl.pax)!;
    return `<div class="pass" data-pax="${esc(p.first)}"><div class="hd"><span>${l.from} → ${l.to}</span><span>${esc(l.no)}</span></div><div class="nm">${esc(fullName(p))}</div>
<div class="bd"><div><div class="k">Date</div><div class="v">${esc(shortDay(l.day).split(', ')[1] ?? '')}</div></div><div><div class="k">Boarding</div><div class="v">${esc(boarding)}</div></div><div><div class="k">Seat</div><div class="v">${esc(pl.seat)}</div></div>
<div><div class="k">Departs</div><div class="v">${esc(l.dep)}</div></div><div><div class="k">Zone</div><div class="v">${t.fare === 'Flex' ? '1' : '3'}</div></div><div><div class="k">Gate</div><div class="v">—</div></div></div><div class="code" aria-hidden="true"></div></div>`;
  };
  const body = `${appbar('Boarding passes', { back: true })}
${kind === 'done' && done.length ? `<div class="card ok"><h2>You're checked in</h2><div class="d">${done.map((p) => esc(personOf(st, p.pax)?.first ?? '')).join(', ')} ${done.length > 1 ? 'are' : 'is'} checked in for ${esc(l.no)} to ${esc(nameOf(l.to))}. The gate shows about 40 minutes before departure.</div></div>` : ''}
${done.length ? done.map(pass).join('') : '<div class="intro">No one is checked in for this flight yet.</div>'}
${notYet.length ? `<div class="section">Not checked in</div>${notYet.map((pl) => `<div class="px">${paxAvatar(personOf(st, pl.pax)!)}<div class="info"><div class="n">${esc(fullName(personOf(st, pl.pax)!))}</div><div class="s">Check in by ${esc(timeText(minutesOf(l.dep) - 60))}</div></div></div>`).join('')}${checkinOpen(l) ? `<a class="secondary" id="more-checkin" href="${ctx.base}/checkin/${l.id}">Check in others</a>` : ''}` : ''}
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}
${kind === 'done' && done.length ? toast('Checked in') : ''}`;
  return renderPage({ title: 'Boarding passes', css: CSS, body, ctx });
}

// ---------------------------------------------------------------- Profile

function profilePage(st: FlightsState, ctx: AppContext): AppResponse {
  const row = (tt: string, s: string): string => `<div class="mrow"><div class="info"><div class="t">${esc(tt)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Profile')}
<div class="me-card">${paxAvatar(personOf(st, 'freya')!)}<div class="info"><div class="n">${esc(HOLDER)}</div><div class="s">${esc(HOLDER_EMAIL)}</div></div></div>
<div class="section">Zephra Club</div>
${row('Silver member', `${st.points.toLocaleString('en-US')} points · Gold at 40,000`)}
${row('Member number', 'ZC 4471 2093')}
<div class="section">Travel companions</div>
${st.people
  .filter((p) => p.id !== 'freya' && !p.id.startsWith('guest'))
  .map((p) => `<div class="px">${paxAvatar(p)}<div class="info"><div class="n">${esc(fullName(p))}</div><div class="s">${esc(paxType(p))}</div></div></div>`)
  .join('')}
<div class="section">Payment and documents</div>
${row('Saved card', `${CARD} · expires 09/27`)}
${row('Passport', 'Danish · •••• 4821 · expires 2031')}
<div class="section">App</div>
${row('Notifications', 'Flight updates and check-in reminders: on')}
${row('Language', 'English')}
${row('Customer service', SUPPORT_PHONE)}
<div class="ver">Zephra 7.3.1</div>
<div class="spacer"></div>${bottomNav(ctx, 'profile')}${menu(ctx)}`;
  return renderPage({ title: 'Profile', css: CSS, body, ctx, root: true });
}

// ---------------------------------------------------------------- API

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

function handleApi(st: FlightsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'book': {
      const search: Search = { to: str(b.to), day: num(b.day), ret: num(b.ret), adults: num(b.adults) };
      const names = Array.isArray(b.names) ? b.names.map((n) => cleanText(str(n))) : [];
      const d = { search, out: str(b.out), outFare: str(b.outFare), back: str(b.back), backFare: str(b.backFare), names, rules: b.rules === true };
      const error = bookingError(d);
      if (error) return json({ ok: false, error });
      const n = st.trips.filter((t) => !t.seeded).length;
      const ref = NEW_REFS[n] ?? `ZN${String(100 + n)}X`;
      const pax = ['freya'];
      names.forEach((name, i) => {
        const [first, ...rest] = name.split(' ');
        const id = `guest${st.people.length + i}`;
        st.people.push({ id, first: first ?? name, last: rest.join(' ') });
        pax.push(id);
      });
      let h = st.seed >>> 0;
      for (const ch of ref) h = (Math.imul(h ^ ch.charCodeAt(0), 16777619) + 3) >>> 0;
      const rand = rng(h);
      const legs = [makeLeg(ref, 'out', search.day, d.out, pax, {}, rand)];
      if (search.ret >= 0) legs.push(makeLeg(ref, 'back', search.ret, d.back, pax, {}, rand));
      const fare = search.ret >= 0 && d.backFare !== d.outFare ? `${d.outFare} / ${d.backFare}` : d.outFare;
      const total = (farePrice(st.seed, d.out, search.day, d.outFare) + (search.ret >= 0 ? farePrice(st.seed, d.back, search.ret, d.backFare) : 0)) * search.adults;
      st.trips.push({ ref, fare, pax, legs, bags: [], total, seeded: false, seq: st.seq });
      return json({ ok: true, ref });
    }
    case 'seat': {
      const hit = legOf(st, str(b.leg));
      const pl = hit ? paxLeg(hit.leg, str(b.pax)) : undefined;
      if (!hit || !pl) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const seat = str(b.seat).toUpperCase();
      if (!ALL_SEATS.includes(seat)) return json({ ok: false, error: 'Tap a free seat first' });
      if (seat === pl.seat) return json({ ok: false, error: `This is already ${personOf(st, pl.pax)?.first ?? ''}'s seat` }, 409);
      if (seatsTaken(hit.leg).has(seat)) return json({ ok: false, error: `Seat ${seat} is no longer free` }, 409);
      if (minutesUntil(hit.leg) <= 60) return json({ ok: false, error: 'Seats can no longer be changed for this flight' }, 409);
      pl.seat = seat;
      pl.seatBy = 'user';
      pl.seatFee = seatFee(seat);
      pl.seq = st.seq;
      return json({ ok: true });
    }
    case 'bag_add': {
      const t = tripOf(st, str(b.ref));
      const pax = str(b.pax);
      if (!t || !t.pax.includes(pax)) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const weight = str(b.weight);
      if (!Number.isFinite(bagPrice(weight))) return json({ ok: false, error: 'Choose a bag' });
      if (liveBags(t).filter((x) => x.pax === pax).length >= MAX_BAGS) return json({ ok: false, error: `Each passenger can check up to ${MAX_BAGS} bags` }, 409);
      const id = 100 + st.trips.reduce((n, x) => n + x.bags.filter((y) => !y.seeded).length, 0);
      t.bags.push({ id, pax, weight, price: bagPrice(weight), paid: false, removed: false, seeded: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'bag_remove': {
      const t = tripOf(st, str(b.ref));
      const bag = t?.bags.find((x) => x.id === num(b.id) && !x.paid && !x.removed);
      if (!bag) return json({ ok: false, error: 'This bag is no longer in the basket' }, 409);
      bag.removed = true;
      bag.seq = st.seq;
      return json({ ok: true });
    }
    case 'bags_pay': {
      const t = tripOf(st, str(b.ref));
      const items = t ? basket(t) : [];
      if (!t || !items.length) return json({ ok: false, error: 'Your basket is empty' }, 409);
      for (const x of items) {
        x.paid = true;
        x.seq = st.seq;
      }
      return json({ ok: true, ids: items.map((x) => x.id) });
    }
    case 'checkin': {
      const hit = legOf(st, str(b.leg));
      if (!hit) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const { leg } = hit;
      if (!checkinOpen(leg)) return json({ ok: false, error: `Online check-in opens ${checkinOpensText(leg)}` }, 409);
      const ids = Array.isArray(b.pax) ? b.pax.map(str) : [];
      const chosen = leg.pax.filter((p) => ids.includes(p.pax) && !p.checkedIn);
      const errors: Record<string, string> = {};
      if (!chosen.length) errors.pax = 'Choose who is checking in';
      else {
        const adultIn = leg.pax.some((p) => (p.checkedIn || chosen.includes(p)) && !personOf(st, p.pax)?.childAge);
        const kid = chosen.find((p) => personOf(st, p.pax)?.childAge !== undefined);
        if (kid && !adultIn) errors.pax = `${personOf(st, kid.pax)?.first ?? 'A child'} can only be checked in with an adult on this booking`;
      }
      if (b.dg !== true) errors.dg = 'Confirm the dangerous goods rules to continue';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      for (const p of chosen) {
        if (!p.seat) {
          p.seat = freeSeatFor(leg);
          p.seatBy = 'checkin';
        }
        p.checkedIn = true;
        p.seq = st.seq;
      }
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleFlights(st: FlightsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  if (parts.length > 2) return notFound(CSS);
  const q = req.query;
  if (head === undefined) return homePage(st, ctx);
  if (head === 'book' && arg === undefined) return bookPage(ctx, q);
  if ((head === 'results' || head === 'review') && arg === undefined) {
    const s = searchOf(q);
    if (!s) return { status: 303, redirect: `${ctx.base}/book` };
    return head === 'results' ? resultsPage(st, ctx, s, q) : reviewPage(st, ctx, s, q);
  }
  if (head === 'trips' && arg === undefined) return tripsPage(st, ctx);
  if (head === 'trip' && arg) {
    const t = tripOf(st, arg);
    return t ? tripPage(st, ctx, t, q) : notFound(CSS);
  }
  if (head === 'seats' && arg) {
    const hit = legOf(st, arg);
    return hit ? seatsPage(st, ctx, hit.trip, hit.leg, q.get('pax') ?? '') : notFound(CSS);
  }
  if (head === 'bags' && arg) {
    const t = tripOf(st, arg);
    return t ? bagsPage(st, ctx, t, q.get('t') ?? '') : notFound(CSS);
  }
  if (head === 'checkin' && arg === undefined) return checkinListPage(st, ctx);
  if (head === 'checkin' && arg) {
    const hit = legOf(st, arg);
    if (!hit) return notFound(CSS);
    return checkinOpen(hit.leg) ? checkinPage(st, ctx, hit.trip, hit.leg) : { status: 303, redirect: `${ctx.base}/trip/${hit.trip.ref}` };
  }
  if (head === 'boarding' && arg) {
    const hit = legOf(st, arg);
    return hit ? boardingPage(st, ctx, hit.trip, hit.leg, q.get('t') ?? '') : notFound(CSS);
  }
  if (head === 'profile' && arg === undefined) return profilePage(st, ctx);
  return notFound(CSS);
}
