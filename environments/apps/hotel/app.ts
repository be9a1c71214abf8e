import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  ARRIVALS,
  bookableRooms,
  CANCEL_REASONS,
  CARD,
  CHECKIN_DAYS,
  CHECKIN_OPENS_DAYS,
  checkinOpen,
  CITIES,
  dayLabel,
  dayOfMonth,
  dollars,
  GUEST,
  GUEST_EMAIL,
  GUEST_PHONE,
  hotelOf,
  LAST_CHECKIN,
  lateCancel,
  MAX_NIGHTS,
  money,
  MONTHS,
  monthShort,
  nightsText,
  plateError,
  refundCents,
  reviewErrors,
  roomOf,
  shortDay,
  STAR_WORDS,
  TAX_RATE,
  TITLE_MAX,
  totalCents,
  TRIP_TYPES,
  weekdayOf,
  type Booking,
  type Hotel,
  type HotelState,
  type PastStay,
  type Room,
} from './state.js';

const ACCENT = '#1d4e89';
const SOFT = '#dbe7f6';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f3f5f9}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #d9dfe8}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#59636f}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#132d4f}
.hello .s{font-size:16px;font-weight:normal;color:#4f5b69;margin-top:4px}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #d9dfe8}
.card h2{margin:0 0 6px;font-size:22px}
.card .d{font-size:16px;color:#465261;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card .open{color:#2b8a3e;font-weight:bold}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.gone{background:#fff5f5;border-color:#ffc9c9}
.cities{display:flex;gap:8px;padding:4px 12px 10px;flex-wrap:wrap}
.cities a{height:40px;padding:0 16px;border-radius:20px;border:2px solid #cdd5e0;background:#fff;display:flex;align-items:center;font-size:16px;font-weight:bold;color:#3a4655}
.cities a.on{border-color:${ACCENT};background:${ACCENT};color:#fff}
.ht{display:flex;gap:14px;align-items:center;min-height:96px;padding:12px 16px;background:#fff;border-bottom:1px solid #e4e9f0}
.ph{width:68px;height:68px;border-radius:12px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:22px;font-weight:bold}
.ht .info{flex:1;min-width:0}
.ht .n{font-size:18px;font-weight:bold}
.ht .s{font-size:15px;color:#4f5b69;margin-top:2px}
.ht .pr{flex:none;text-align:right;font-size:13px;color:#4f5b69}
.ht .pr b{display:block;font-size:19px;color:#132d4f}
.rm{display:flex;gap:12px;align-items:center;min-height:104px;padding:12px 16px;background:#fff;border-bottom:1px solid #e4e9f0}
.rm .info{flex:1;min-width:0}
.rm .n{font-size:18px;font-weight:bold}
.rm .s{font-size:15px;color:#4f5b69;margin-top:2px}
.rm .s.free{color:#2b8a3e;font-weight:bold}
.rm .s.nr{color:#c92a2a;font-weight:bold}
.rm .buy{flex:none;display:flex;flex-direction:column;align-items:flex-end;gap:6px}
.rm .buy .p{font-size:19px;font-weight:bold;color:#132d4f}
.rm .buy .p span{font-size:13px;font-weight:normal;color:#4f5b69}
.rm .buy button{height:42px;padding:0 18px;border-radius:21px;background:${ACCENT};color:#fff;font-size:16px;font-weight:bold}
.rm .buy .out{height:42px;line-height:42px;padding:0 12px;border-radius:21px;background:#f1f3f5;color:#868e96;font-size:15px;font-weight:bold}
.rm.off .n{color:#868e96}
.seg{display:flex;gap:10px;margin:12px 12px 8px}
.seg a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #cdd5e0;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#3a4655}
.seg a.on{border-color:${ACCENT};background:${SOFT};color:#132d4f}
.bk{display:flex;gap:14px;align-items:center;min-height:90px;padding:12px 16px;background:#fff;border-bottom:1px solid #e4e9f0}
.bk .date{width:54px;flex:none;text-align:center;border-radius:10px;background:${SOFT};color:${ACCENT};padding:6px 0;font-size:13px;font-weight:bold;line-height:16px}
.bk .date b{display:block;font-size:22px;line-height:26px}
.bk .info{flex:1;min-width:0}
.bk .n{font-size:18px;font-weight:bold}
.bk .s{font-size:15px;color:#4f5b69;margin-top:2px}
.bk .badge{display:inline-block;margin-top:4px;padding:2px 8px;border-radius:10px;font-size:13px;font-weight:bold;background:#d3f9d8;color:#2b8a3e}
.bk.off .date{background:#f1f3f5;color:#868e96}
.bk.off .n{color:#868e96;text-decoration:line-through}
.bk .go{font-size:22px;color:#a3adba}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e4e9f0;font-size:17px}
.kv .k{color:#4f5b69;flex:none}
.kv .v{font-weight:bold;text-align:right}
.kv.total .v{font-size:19px}
.intro{padding:14px 16px 4px;font-size:16px;color:#465261}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.primary[disabled]{background:#9fb4cf!important}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:56px;padding:10px 4px;background:#fff;border-bottom:1px solid #f1f3f5;text-align:left}
.opt .info{flex:1}
.opt .t{font-size:17px;font-weight:bold}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff;text-align:left}
.field .pick.unset{color:#868e96}
.field.bad input,.field.bad .pick,.field.bad textarea{border-color:#c92a2a}
.field textarea{height:110px}
.field .hint{font-size:15px;color:#4f5b69;margin-top:6px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.steps{display:flex;align-items:center;justify-content:space-between;margin:10px 12px;padding:10px 14px;background:#fff;border-radius:12px}
.steps .t{font-size:18px;font-weight:bold}
.steps .s{font-size:14px;color:#4f5b69}
.stepper{display:flex;align-items:center;gap:6px}
.stepper button{width:44px;height:44px;border-radius:22px;border:2px solid ${ACCENT};color:${ACCENT};font-size:24px;font-weight:bold;line-height:38px;background:#fff}
.stepper button[disabled]{border-color:#ced4da;color:#ced4da}
.stepper .val{min-width:40px;text-align:center;font-size:20px;font-weight:bold}
.month{margin:8px 12px;padding:10px;background:#fff;border-radius:12px}
.month h3{margin:4px 6px 8px;font-size:18px;color:#132d4f}
.month .wk,.month .days{display:grid;grid-template-columns:repeat(7,1fr);gap:4px}
.month .wk span{text-align:center;font-size:13px;font-weight:bold;color:#7a8594}
.month .days button,.month .days span{height:44px;border-radius:22px;font-size:17px;font-weight:bold;display:flex;align-items:center;justify-content:center}
.month .days span.off{color:#c3c9d1;font-weight:normal}
.month .days button.in{background:${SOFT};border-radius:8px}
.month .days button.out{background:${SOFT};border:2px solid ${ACCENT}}
.month .days button.on{background:${ACCENT};color:#fff}
.footer{position:fixed;left:0;right:0;bottom:0;z-index:30;background:#fff;border-top:1px solid #d9dfe8;padding:4px 0}
.footer .sum{padding:8px 16px 0;font-size:15px;color:#465261;min-height:22px}
.footer .primary{margin:8px 12px}
.stars{display:flex;gap:6px;align-items:center}
.stars button{width:48px;height:48px;font-size:34px;line-height:44px;color:#ced4da}
.stars button.on{color:#f59f00}
.stars .w{margin-left:8px;font-size:17px;font-weight:bold;color:#465261}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.rev{padding:12px 16px;background:#fff;border-bottom:1px solid #e4e9f0}
.rev .st{color:#f59f00;font-size:20px}
.rev .t{font-size:18px;font-weight:bold;margin-top:4px}
.rev .x{font-size:16px;color:#465261;margin-top:4px}
.dialog .reasons .opt{min-height:50px}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
`;

type Tab = 'explore' | 'trips' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'explore', label: 'Explore', glyph: '&#9906;', href: `${ctx.base}/` },
      { id: 'trips', label: 'Trips', glyph: '&#9638;', href: `${ctx.base}/trips` },
      { id: 'account', label: 'Account', glyph: '&#9786;', href: `${ctx.base}/account` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Past stays', `${ctx.base}/trips/past`],
    ['Rewards', `${ctx.base}/account`],
    ['Help', `${ctx.base}/account`],
  ]);

const CITY_COLORS: Readonly<Record<string, string>> = { Seattle: '#1864ab', Portland: '#2b8a3e', 'San Diego': '#e8590c' };
const initials = (name: string): string =>
  name
    .replace(/^The /, '')
    .split(/[\s&]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
const photo = (h: Hotel, size = 68): string =>
  `<div class="ph" style="background:${CITY_COLORS[h.city] ?? ACCENT};width:${size}px;height:${size}px">${esc(initials(h.name))}</div>`;
const hotelName = (st: HotelState, id: number): string => hotelOf(st, id)?.name ?? 'Hotel';
const roomName = (st: HotelState, id: number): string => roomOf(st, id)?.name ?? 'Room';
const range = (checkin: number, nights: number): string => `${shortDay(checkin)} – ${shortDay(checkin + nights)}`;
const upcoming = (st: HotelState): Booking[] => st.bookings.filter((b) => b.status === 'booked').sort((a, b) => a.checkin - b.checkin || a.id - b.id);
const stars = (n: number): string => '★'.repeat(n) + '☆'.repeat(5 - n);
const fromCents = (h: Hotel): number => Math.min(...bookableRooms(h).map((r) => r.cents));

function explorePage(st: HotelState, ctx: AppContext, city: string): AppResponse {
  const next = upcoming(st)[0];
  const shown = st.order.map((id) => hotelOf(st, id)).filter((h): h is Hotel => !!h && (!city || h.city === city));
  const chips = ['', ...CITIES].map((c) => `<a class="${c === city ? 'on' : ''}" href="${ctx.base}/${c ? `?city=${encodeURIComponent(c)}` : ''}">${esc(c || 'All')}</a>`).join('');
  const rows = shown
    .map(
      (h) =>
        `<a class="ht" href="${ctx.base}/h/${h.id}" data-hotel="${esc(h.name)}">${photo(h)}<div class="info"><div class="n">${esc(h.name)}</div><div class="s">${esc(h.area)}, ${esc(h.city)}</div><div class="s">★ ${h.rating.toFixed(
          1,
        )} (${h.reviews.toLocaleString('en-US')} reviews) · ${h.klass}-star</div></div><div class="pr">from<b>${dollars(fromCents(h))}</b>/night</div></a>`,
    )
    .join('');
  const body = `${appbar('Lodgerra')}
<div class="hello">Where to next, ${esc(GUEST.split(' ')[0] ?? '')}?<div class="s">You have ${st.points.toLocaleString('en-US')} reward points</div></div>
${
  next
    ? `<a class="card" href="${ctx.base}/t/${next.id}"><div class="lbl">Your next stay</div><h2>${esc(hotelName(st, next.hotelId))}</h2><div class="d">${esc(range(next.checkin, next.nights))} · ${nightsText(next.nights)}</div>${
        next.checkedIn ? '<div class="d open">Checked in</div>' : checkinOpen(next) ? '<div class="d open">Online check-in is open</div>' : ''
      }</a>`
    : ''
}
<div class="section">Find your next stay</div>
<div class="cities">${chips}</div>
${rows || '<div class="empty">No hotels here yet</div>'}
<div class="spacer"></div>${bottomNav(ctx, 'explore')}${menu(ctx)}`;
  return renderPage({ title: 'Lodgerra', css: CSS, body, ctx, root: true });
}

function roomRow(r: Room): string {
  const buy = r.soldOut
    ? `<span class="out">Sold out</span>`
    : `<button data-room="${r.id}" aria-label="Select ${esc(r.name)}" onclick="pick(${r.id})">Select</button>`;
  return `<div class="rm${r.soldOut ? ' off' : ''}" data-room-name="${esc(r.name)}"><div class="info"><div class="n">${esc(r.name)}</div><div class="s">${esc(r.bed)} · Sleeps ${r.sleeps} · ${r.sqft} sq ft</div><div class="s">${esc(
    r.perk,
  )}</div><div class="s ${r.refundable ? 'free' : 'nr'}">${r.refundable ? 'Free cancellation' : 'Non-refundable'}</div></div><div class="buy"><div class="p">${dollars(r.cents)}<span> /night</span></div>${buy}</div></div>`;
}

function hotelPage(ctx: AppContext, h: Hotel): AppResponse {
  const body = `${appbar(h.name, { back: true })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${photo(h, 60)}<div><h2 style="margin:0">${esc(h.name)}</h2><div class="d">${esc(h.area)}, ${esc(h.city)}</div></div></div>
<div class="d">★ ${h.rating.toFixed(1)} · ${h.reviews.toLocaleString('en-US')} reviews · ${h.klass}-star hotel</div><div class="d">${esc(h.amenities.join(' · '))}</div></div>
<div class="kv"><span class="k">Check-in</span><span class="v">from 3:00 PM</span></div>
<div class="kv"><span class="k">Check-out</span><span class="v">by 11:00 AM</span></div>
<div class="kv"><span class="k">Parking</span><span class="v">${h.parkingCents ? `${dollars(h.parkingCents)} a night` : 'Free'}</span></div>
<div class="section">Choose your room</div>
<div class="intro" style="padding-top:0">Prices are per night, before taxes and fees.</div>
${h.rooms.map((r) => roomRow(r)).join('')}
<div class="error" id="err"></div>
<div class="spacer"></div>${bottomNav(ctx, 'explore')}${menu(ctx)}`;
  const script = `let busy=false;function pick(id){if(busy)return;busy=true;api('draft',{hotel:${h.id},room:id}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/book/dates';return}document.getElementById('err').textContent=r.error||'Could not select this room'})}`;
  return renderPage({ title: h.name, css: CSS, body, ctx, script });
}

const draftRoom = (st: HotelState): Room | undefined => {
  const r = roomOf(st, st.draft.roomId);
  return r && !r.soldOut && r.hotelId === st.draft.hotelId ? r : undefined;
};

function monthGrid(label: string, first: number, days: number, lead: number): string {
  const cells: string[] = [];
  for (let i = 0; i < lead; i++) cells.push('<span></span>');
  for (let d = 1; d <= days; d++) {
    const o = first + d - 1;
    cells.push(
      o >= 0 && o <= LAST_CHECKIN
        ? `<button data-o="${o}" aria-label="${esc(dayLabel(o))}" onclick="pickDay(${o})">${d}</button>`
        : `<span class="off" aria-disabled="true">${d}</span>`,
    );
  }
  return `<div class="month"><h3>${esc(label)}</h3><div class="wk">${['S', 'M', 'T', 'W', 'T', 'F', 'S'].map((w) => `<span>${w}</span>`).join('')}</div><div class="days">${cells.join('')}</div></div>`;
}

function datesPage(st: HotelState, ctx: AppContext): AppResponse {
  const r = draftRoom(st);
  const h = r ? hotelOf(st, r.hotelId) : undefined;
  if (!r || !h) return { status: 303, redirect: `${ctx.base}/` };
  const d = st.draft;
  const checkin = CHECKIN_DAYS.includes(d.checkin) ? d.checkin : -1;
  const nights = Math.min(Math.max(d.nights, 1), MAX_NIGHTS);
  const guests = Math.min(Math.max(d.guests, 1), r.sleeps);
  const body = `${appbar('Choose your dates', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#132d4f">${esc(h.name)}</b><br>${esc(r.name)} · ${dollars(r.cents)} a night</div>
<div class="steps"><div><div class="t">Nights</div><div class="s">Up to ${MAX_NIGHTS}</div></div><div class="stepper"><button id="n-minus" aria-label="Fewer nights" onclick="nights(-1)">−</button><span class="val" id="n-v">${nights}</span><button id="n-plus" aria-label="More nights" onclick="nights(1)">+</button></div></div>
<div class="steps"><div><div class="t">Guests</div><div class="s">This room sleeps ${r.sleeps}</div></div><div class="stepper"><button id="g-minus" aria-label="Fewer guests" onclick="guests(-1)">−</button><span class="val" id="g-v">${guests}</span><button id="g-plus" aria-label="More guests" onclick="guests(1)">+</button></div></div>
<div class="section">Check-in date</div>
${MONTHS.map(([label, first, days, lead]) => monthGrid(label, first, days, lead)).join('')}
<div class="spacer" style="height:160px"></div>
<div class="footer"><div class="sum" id="sum"></div><button class="primary" id="go" disabled onclick="next()">Continue</button></div>`;
  const labels = Object.fromEntries(Array.from({ length: LAST_CHECKIN + MAX_NIGHTS + 1 }, (_, o) => [o, shortDay(o)]));
  const script = `const V={checkin:${checkin},nights:${nights},guests:${guests}};const MAXN=${MAX_NIGHTS};const SLEEPS=${r.sleeps};const RATE=${r.cents};const TAX=${TAX_RATE};const L=${JSON.stringify(labels)};
const money=c=>'$'+(c/100).toFixed(2);
function draw(){document.getElementById('n-v').textContent=V.nights;document.getElementById('g-v').textContent=V.guests;
 document.getElementById('n-minus').disabled=V.nights<=1;document.getElementById('n-plus').disabled=V.nights>=MAXN;document.getElementById('g-minus').disabled=V.guests<=1;document.getElementById('g-plus').disabled=V.guests>=SLEEPS;
 for(const b of document.querySelectorAll('.days button')){const o=Number(b.dataset.o);b.classList.toggle('on',o===V.checkin);b.classList.toggle('in',V.checkin>=0&&o>V.checkin&&o<V.checkin+V.nights);b.classList.toggle('out',V.checkin>=0&&o===V.checkin+V.nights);b.setAttribute('aria-pressed',String(o===V.checkin))}
 const s=document.getElementById('sum');if(V.checkin<0){s.textContent='Pick a check-in date';document.getElementById('go').disabled=true;return}
 s.textContent=L[V.checkin]+' – '+L[V.checkin+V.nights]+' · '+V.nights+(V.nights===1?' night':' nights')+' · '+money(Math.round(RATE*V.nights*(1+TAX)))+' total';document.getElementById('go').disabled=false}
function pickDay(o){V.checkin=o;draw()}
function nights(d){V.nights=Math.min(MAXN,Math.max(1,V.nights+d));draw()}
function guests(d){V.guests=Math.min(SLEEPS,Math.max(1,V.guests+d));draw()}
draw();
let busy=false;function next(){if(V.checkin<0||busy)return;busy=true;api('dates',V).then(r=>{busy=false;if(r.ok){location.href=BASE+'/book/review';return}document.getElementById('sum').textContent=r.error||'Pick other dates'})}`;
  return renderPage({ title: 'Choose your dates', css: CSS, body, ctx, script });
}

function reviewPage(st: HotelState, ctx: AppContext): AppResponse {
  const d = st.draft;
  const r = draftRoom(st);
  const h = r ? hotelOf(st, r.hotelId) : undefined;
  if (!r || !h) return { status: 303, redirect: `${ctx.base}/` };
  if (!CHECKIN_DAYS.includes(d.checkin)) return { status: 303, redirect: `${ctx.base}/book/dates` };
  const rateCents = r.cents * d.nights;
  const total = totalCents(r, d.nights);
  const policy = r.refundable
    ? `Free cancellation until ${shortDay(d.checkin - 2)}, 3:00 PM. After that, the first night is charged. You pay at the hotel.`
    : `Non-refundable: ${money(total)} is charged to ${CARD} now, and you get nothing back if you cancel.`;
  const body = `${appbar('Review your stay', { back: true, menu: false })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${photo(h, 56)}<div><h2 style="margin:0">${esc(h.name)}</h2><div class="d">${esc(r.name)} · ${esc(h.city)}</div></div></div></div>
<div class="kv"><span class="k">Check-in</span><span class="v">${esc(dayLabel(d.checkin))}<br><span class="muted">from 3:00 PM</span></span></div>
<div class="kv"><span class="k">Check-out</span><span class="v">${esc(dayLabel(d.checkin + d.nights))}<br><span class="muted">by 11:00 AM</span></span></div>
<div class="kv"><span class="k">Nights</span><span class="v">${d.nights}</span></div>
<div class="kv"><span class="k">Guests</span><span class="v">${d.guests}</span></div>
<div class="kv"><span class="k">Room</span><span class="v">${money(r.cents)} × ${nightsText(d.nights)}</span></div>
<div class="kv"><span class="k">Taxes and fees</span><span class="v">${money(total - rateCents)}</span></div>
<div class="kv total"><span class="k">Total</span><span class="v">${money(total)}</span></div>
<div class="intro">${esc(policy)}</div>
<div class="field"><label for="requests">Special requests (optional)</label><textarea id="requests" maxlength="200" placeholder="High floor, early check-in, crib…"></textarea><div class="hint">Requests depend on availability.</div></div>
<div class="error" id="err"></div>
<button class="primary" onclick="book()">Confirm booking</button>
<a class="outline" href="${ctx.base}/book/dates">Change dates</a><div class="spacer"></div>`;
  const script = `let busy=false;function book(){if(busy)return;busy=true;api('book',{requests:document.getElementById('requests').value}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/'+r.id+'?toast=booked');return}document.getElementById('err').textContent=r.error||'Could not book'})}`;
  return renderPage({ title: 'Review your stay', css: CSS, body, ctx, script });
}

function bookingRow(st: HotelState, ctx: AppContext, b: Booking): string {
  const gone = b.status === 'cancelled';
  const badge = gone ? '' : b.checkedIn ? '<span class="badge">Checked in</span>' : checkinOpen(b) ? '<span class="badge">Online check-in open</span>' : '';
  return `<a class="bk${gone ? ' off' : ''}" href="${ctx.base}/t/${b.id}" data-hotel="${esc(hotelName(st, b.hotelId))}" data-date="${esc(dayLabel(b.checkin))}"><div class="date">${esc(weekdayOf(b.checkin).slice(0, 3))}<b>${dayOfMonth(
    b.checkin,
  )}</b>${esc(monthShort(b.checkin))}</div><div class="info"><div class="n">${esc(hotelName(st, b.hotelId))}</div><div class="s">${esc(roomName(st, b.roomId))} · ${nightsText(b.nights)}${gone ? ' · Cancelled' : ''}</div><div class="s">${esc(
    range(b.checkin, b.nights),
  )}</div>${badge}</div><span class="go">&rsaquo;</span></a>`;
}

function stayRow(st: HotelState, ctx: AppContext, p: PastStay): string {
  return `<a class="bk" href="${ctx.base}/s/${p.id}" data-hotel="${esc(hotelName(st, p.hotelId))}" data-date="${esc(dayLabel(p.checkin))}"><div class="date">${esc(weekdayOf(p.checkin).slice(0, 3))}<b>${dayOfMonth(p.checkin)}</b>${esc(
    monthShort(p.checkin),
  )}</div><div class="info"><div class="n">${esc(hotelName(st, p.hotelId))}</div><div class="s">${esc(p.roomName)} · ${nightsText(p.nights)}</div><div class="s">${esc(range(p.checkin, p.nights))}</div><div class="s">${
    p.review ? `Your review: ${stars(p.review.stars)}` : 'Not reviewed yet'
  }</div></div><span class="go">&rsaquo;</span></a>`;
}

function tripsPage(st: HotelState, ctx: AppContext, past: boolean): AppResponse {
  const up = upcoming(st);
  const seg = `<div class="seg"><a class="${past ? '' : 'on'}" href="${ctx.base}/trips">Upcoming (${up.length})</a><a class="${past ? 'on' : ''}" href="${ctx.base}/trips/past">Past</a></div>`;
  let rows: string;
  if (past) {
    const gone = st.bookings.filter((b) => b.status === 'cancelled').sort((a, b) => b.seq - a.seq);
    rows = `${gone.length ? `<div class="section">Cancelled</div>${gone.map((b) => bookingRow(st, ctx, b)).join('')}` : ''}<div class="section">Completed stays</div>${st.past.map((p) => stayRow(st, ctx, p)).join('')}`;
  } else rows = up.length ? up.map((b) => bookingRow(st, ctx, b)).join('') : '<div class="empty">No upcoming stays</div>';
  const body = `${appbar('Trips')}${seg}${rows}
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}`;
  return renderPage({ title: 'Trips', css: CSS, body, ctx, root: true });
}

function tripPage(st: HotelState, ctx: AppContext, b: Booking, t: string): AppResponse {
  const h = hotelOf(st, b.hotelId);
  const gone = b.status === 'cancelled';
  const refund = refundCents(st, b);
  const top = gone
    ? `<div class="card gone"><h2>Booking cancelled</h2><div class="d">Reason: ${esc(b.cancelReason)}</div><div class="d">${refund ? `Refund of ${money(refund)} to ${esc(CARD)} in 5–7 business days.` : 'No refund: this rate was non-refundable.'}</div></div>`
    : b.checkedIn
      ? `<div class="card ok"><h2>You're checked in</h2><div class="d">Arriving ${b.checkedIn.arrival === 'After 10 PM' ? 'after 10 PM' : `around ${esc(b.checkedIn.arrival)}`}. We'll text ${esc(b.checkedIn.phone)} when your room is ready; pick up your key at the express desk.</div></div>`
      : !b.seeded
        ? `<div class="card ok"><h2>Booking confirmed</h2><div class="d">Confirmation ${esc(b.code)}. We emailed the details to ${esc(GUEST_EMAIL)}.</div></div>`
        : '';
  const late = lateCancel(b);
  const policy = !b.refundable ? 'Non-refundable' : late ? 'Free cancellation has ended; the first night is charged' : `Free cancellation until ${shortDay(b.checkin - 2)}, 3:00 PM`;
  let checkin = '';
  if (!gone && b.checkedIn)
    checkin = `<div class="kv"><span class="k">Arrival</span><span class="v">${esc(b.checkedIn.arrival)}</span></div>${b.checkedIn.plate ? `<div class="kv"><span class="k">Licence plate</span><span class="v">${esc(b.checkedIn.plate)}</span></div>` : ''}`;
  else if (!gone && checkinOpen(b)) checkin = `<a class="primary" href="${ctx.base}/t/${b.id}/checkin">Check in online</a>`;
  else if (!gone) checkin = `<div class="card note"><div class="d" style="margin:0">Online check-in opens ${esc(shortDay(b.checkin - CHECKIN_OPENS_DAYS))}, ${CHECKIN_OPENS_DAYS} days before you arrive.</div></div>`;
  const reasons = CANCEL_REASONS.map(
    (r) => `<button class="opt" role="radio" aria-checked="false" data-v="${esc(r)}" onclick="pickReason(this)"><span class="rad"></span><div class="info"><div class="t">${esc(r)}</div></div></button>`,
  ).join('');
  const refundText = !b.refundable
    ? 'This rate is non-refundable: you will not get any money back.'
    : late
      ? `Free cancellation has ended, so the first night is charged. You'll get ${money(refund)} back.`
      : `You'll get a full refund of ${money(refund)}.`;
  const dialog = gone
    ? ''
    : `<div id="cancel" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Cancel this booking?"><h2>Cancel this booking?</h2>
<p>Your ${nightsText(b.nights)} at ${esc(hotelName(st, b.hotelId))}, ${esc(dayLabel(b.checkin))} to ${esc(dayLabel(b.checkin + b.nights))}, will be cancelled. ${esc(refundText)}</p>
<p style="margin-bottom:4px"><b>Why are you cancelling?</b></p><div class="reasons" role="radiogroup">${reasons}</div><div class="err" id="cerr"></div>
<div class="acts"><button onclick="hide('cancel')">Keep booking</button><button class="destroy" id="cancel-ok" onclick="doCancel()">Yes, cancel</button></div></div></div>`;
  const body = `${appbar('Your booking', { back: true })}${top}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${h ? photo(h, 56) : ''}<div><h2 style="margin:0">${esc(hotelName(st, b.hotelId))}</h2><div class="d">${esc(range(b.checkin, b.nights))} · ${nightsText(b.nights)}</div></div></div></div>
${checkin}
<div class="section">Booking details</div>
<div class="kv"><span class="k">Confirmation</span><span class="v">${esc(b.code)}</span></div>
<div class="kv"><span class="k">Room</span><span class="v">${esc(roomName(st, b.roomId))}</span></div>
<div class="kv"><span class="k">Check-in</span><span class="v">${esc(dayLabel(b.checkin))}, from 3:00 PM</span></div>
<div class="kv"><span class="k">Check-out</span><span class="v">${esc(dayLabel(b.checkin + b.nights))}, by 11:00 AM</span></div>
<div class="kv"><span class="k">Guests</span><span class="v">${b.guests}</span></div>
<div class="kv"><span class="k">Total</span><span class="v">${money(b.cents)}</span></div>
<div class="kv"><span class="k">Cancellation</span><span class="v">${esc(policy)}</span></div>
<div class="kv"><span class="k">Address</span><span class="v">${esc(h ? `${h.area}, ${h.city}` : '')}</span></div>
${gone ? `<a class="outline" href="${ctx.base}/h/${b.hotelId}">Book this hotel again</a>` : `<button class="outline danger" onclick="openCancel()">Cancel booking</button>`}
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}${dialog}${
    t === 'booked' && !gone ? toast('Booking confirmed') : t === 'cancelled' && gone ? toast('Booking cancelled') : t === 'checkedin' && b.checkedIn ? toast('Checked in') : ''
  }`;
  const script = `let R='';
function openCancel(){R='';for(const o of document.querySelectorAll('.reasons .opt')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('cerr').textContent='';show('cancel')}
function pickReason(el){R=el.dataset.v;document.getElementById('cerr').textContent='';for(const o of document.querySelectorAll('.reasons .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doCancel(){if(!R){document.getElementById('cerr').textContent='Choose a reason';return}if(busy)return;busy=true;
 api('cancel',{id:${b.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/${b.id}?toast=cancelled');return}document.getElementById('cerr').textContent=r.error||'Could not cancel'})}`;
  return renderPage({ title: 'Your booking', css: CSS, body, ctx, script });
}

function checkinPage(st: HotelState, ctx: AppContext, b: Booking): AppResponse {
  const h = hotelOf(st, b.hotelId);
  const parking = h?.parkingCents ? `Parking is ${dollars(h.parkingCents)} a night, added to your bill.` : 'Parking is free for guests.';
  const body = `${appbar('Online check-in', { back: true, menu: false })}
<div class="card"><h2>${esc(hotelName(st, b.hotelId))}</h2><div class="d">${esc(range(b.checkin, b.nights))} · ${esc(roomName(st, b.roomId))}</div></div>
<div class="intro">Skip the front desk line: tell us when you'll get there and your key will be waiting at the express desk.</div>
<div class="field" id="f-arrival"><label>Estimated arrival time</label><button class="pick unset" onclick="show('arrivals')"><span id="arrival-v">Choose a time</span><span>&#9662;</span></button><div class="hint">Check-in is from 3:00 PM.</div><div class="ferr" id="e-arrival"></div></div>
<div class="field" id="f-plate"><label for="plate">Car licence plate (optional)</label><input id="plate" type="text" autocomplete="off" maxlength="12" placeholder="e.g. 8TRK512"><div class="hint">${esc(parking)}</div><div class="ferr" id="e-plate"></div></div>
<div class="field" id="f-phone"><label for="phone">Mobile number</label><input id="phone" type="tel" autocomplete="off" value="${esc(GUEST_PHONE)}"><div class="hint">We'll text you when your room is ready.</div><div class="ferr" id="e-phone"></div></div>
<button class="primary" onclick="save()">Complete check-in</button><div class="spacer"></div>
${pickerDialog('arrivals', 'Arrival time', ARRIVALS, '', 'pickArrival')}`;
  const script = `const V={arrival:''};
function pickArrival(v){V.arrival=v;const s=document.getElementById('arrival-v');s.textContent=v;s.parentElement.classList.remove('unset');document.getElementById('e-arrival').textContent='';document.getElementById('f-arrival').classList.remove('bad');
 for(const o of document.querySelectorAll('#arrivals .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('arrivals')}
let busy=false;function save(){if(busy)return;for(const k of ['arrival','plate','phone']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('checkin',{id:${b.id},arrival:V.arrival,plate:document.getElementById('plate').value,phone:document.getElementById('phone').value}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/t/${b.id}?toast=checkedin');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Online check-in', css: CSS, body, ctx, script });
}

function stayPage(st: HotelState, ctx: AppContext, p: PastStay, t: string): AppResponse {
  const h = hotelOf(st, p.hotelId);
  const rv = p.review;
  const body = `${appbar('Past stay', { back: true })}
${rv && !rv.seeded ? `<div class="card ok"><h2>Thanks for your review</h2><div class="d">It will appear on ${esc(hotelName(st, p.hotelId))}'s page within 24 hours. You earned 250 Lodgerra points.</div></div>` : ''}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${h ? photo(h, 56) : ''}<div><h2 style="margin:0">${esc(hotelName(st, p.hotelId))}</h2><div class="d">${esc(h ? `${h.area}, ${h.city}` : '')}</div></div></div></div>
<div class="section">Stay details</div>
<div class="kv"><span class="k">Room</span><span class="v">${esc(p.roomName)}</span></div>
<div class="kv"><span class="k">Check-in</span><span class="v">${esc(dayLabel(p.checkin))}</span></div>
<div class="kv"><span class="k">Check-out</span><span class="v">${esc(dayLabel(p.checkin + p.nights))}</span></div>
<div class="kv"><span class="k">Nights</span><span class="v">${p.nights}</span></div>
<div class="kv"><span class="k">Total paid</span><span class="v">${money(p.cents)}</span></div>
${
  rv
    ? `<div class="section">Your review</div><div class="rev"><div class="st" aria-label="${rv.stars} out of 5 stars">${stars(rv.stars)}</div><div class="t">${esc(rv.title)}</div>${rv.text ? `<div class="x">${esc(rv.text)}</div>` : ''}${
        rv.tripType ? `<div class="x">Traveled as: ${esc(rv.tripType)}</div>` : ''
      }</div>`
    : `<a class="primary" href="${ctx.base}/s/${p.id}/review">Write a review</a><a class="outline" href="${ctx.base}/h/${p.hotelId}">Book again</a>`
}
<div class="spacer"></div>${bottomNav(ctx, 'trips')}${menu(ctx)}${t === 'reviewed' && rv && !rv.seeded ? toast('Review posted') : ''}`;
  return renderPage({ title: 'Past stay', css: CSS, body, ctx });
}

function reviewFormPage(st: HotelState, ctx: AppContext, p: PastStay): AppResponse {
  const starBtns = [1, 2, 3, 4, 5].map((n) => `<button data-v="${n}" aria-label="${n} star${n === 1 ? '' : 's'}" onclick="rate(${n})">★</button>`).join('');
  const chips = TRIP_TYPES.map((x) => `<button class="chip" data-v="${esc(x)}" onclick="trip(this)">${esc(x)}</button>`).join('');
  const body = `${appbar('Write a review', { back: true, menu: false })}
<div class="intro"><b style="font-size:19px;color:#132d4f">How was your stay at ${esc(hotelName(st, p.hotelId))}?</b><br>${esc(range(p.checkin, p.nights))} · ${esc(p.roomName)}</div>
<div class="field" id="f-stars"><label>Your rating</label><div class="stars" role="radiogroup">${starBtns}<span class="w" id="stars-w">Tap to rate</span></div><div class="ferr" id="e-stars"></div></div>
<div class="field" id="f-title"><label for="title">Title</label><input id="title" type="text" autocomplete="off" maxlength="${TITLE_MAX + 20}" placeholder="Sum up your stay in a few words"><div class="ferr" id="e-title"></div></div>
<div class="field" id="f-text"><label for="text">Your review (optional)</label><textarea id="text" maxlength="1000" placeholder="What did you like? What could be better?"></textarea></div>
<div class="field" id="f-trip"><label>Who did you travel with? (optional)</label><div class="chips">${chips}</div></div>
<button class="primary" onclick="send()">Submit review</button><div class="spacer"></div>`;
  const script = `const V={stars:0,trip:''};const W=${JSON.stringify(STAR_WORDS)};
function rate(n){V.stars=n;for(const b of document.querySelectorAll('.stars button'))b.classList.toggle('on',Number(b.dataset.v)<=n);document.getElementById('stars-w').textContent=W[n];document.getElementById('e-stars').textContent='';document.getElementById('f-stars').classList.remove('bad')}
function trip(el){V.trip=V.trip===el.dataset.v?'':el.dataset.v;for(const b of document.querySelectorAll('#f-trip .chip'))b.classList.toggle('on',b.dataset.v===V.trip)}
let busy=false;function send(){if(busy)return;for(const k of ['stars','title']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('review',{id:${p.id},stars:V.stars,title:document.getElementById('title').value,text:document.getElementById('text').value,tripType:V.trip}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/s/${p.id}?toast=reviewed');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Write a review', css: CSS, body, ctx, script });
}

function accountPage(st: HotelState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const init = GUEST.split(' ').map((w) => w[0] ?? '').join('');
  const stays = st.past.length + st.bookings.filter((b) => b.status === 'booked').length;
  const body = `${appbar('Account')}
<div class="row"><div class="av" style="background:${ACCENT}">${esc(init)}</div><div class="info"><div class="t">${esc(GUEST)}</div><div class="s">${esc(GUEST_EMAIL)}</div></div></div>
<div class="section">Lodgerra Rewards</div>${row(`${st.points.toLocaleString('en-US')} points`, 'Silver member · 2,500 points = $25 off a stay')}${row('Stays this year', String(stays))}
<div class="section">Contact and payment</div>${row('Mobile', GUEST_PHONE)}${row('Email', GUEST_EMAIL)}${row('Card', CARD)}
<div class="section">Preferences</div>${row('Room', 'High floor, away from the elevator')}${row('Bed', 'King when available')}
<div class="section">Help</div>${row('Contact us', 'Chat with us 24/7, or call (800) 555-0199')}${row('Privacy', 'Your data and marketing choices')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

function handleApi(st: HotelState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'draft': {
      const h = hotelOf(st, Number(b.hotel));
      const r = h?.rooms.find((x) => x.id === Number(b.room));
      if (!h || !r) return json({ ok: false, error: 'Choose a room' }, 400);
      if (r.soldOut) return json({ ok: false, error: 'This room is sold out' }, 409);
      const keep = st.draft.roomId === r.id;
      st.draft = { hotelId: h.id, roomId: r.id, checkin: keep ? st.draft.checkin : -1, nights: keep ? st.draft.nights : 1, guests: Math.min(keep ? st.draft.guests : 2, r.sleeps) };
      return json({ ok: true });
    }
    case 'dates': {
      const r = draftRoom(st);
      const checkin = Number(b.checkin);
      const nights = Number(b.nights);
      const guests = Number(b.guests);
      if (!r) return json({ ok: false, error: 'Start again from Explore' }, 409);
      if (!CHECKIN_DAYS.includes(checkin)) return json({ ok: false, error: 'Pick a check-in date' }, 400);
      if (!Number.isInteger(nights) || nights < 1 || nights > MAX_NIGHTS) return json({ ok: false, error: `Stays are 1 to ${MAX_NIGHTS} nights` }, 400);
      if (!Number.isInteger(guests) || guests < 1 || guests > r.sleeps) return json({ ok: false, error: `This room sleeps ${r.sleeps}` }, 400);
      st.draft = { ...st.draft, checkin, nights, guests };
      return json({ ok: true });
    }
    case 'book': {
      const d = st.draft;
      const r = draftRoom(st);
      if (!r || !CHECKIN_DAYS.includes(d.checkin)) return json({ ok: false, error: 'Pick your room and dates again' }, 409);
      const id = 601 + st.bookings.filter((x) => !x.seeded).length;
      st.bookings.push({
        id,
        code: `LG${700000 + st.seed * 37 + id}`,
        hotelId: r.hotelId,
        roomId: r.id,
        checkin: d.checkin,
        nights: d.nights,
        guests: d.guests,
        cents: totalCents(r, d.nights),
        refundable: r.refundable,
        status: 'booked',
        seeded: false,
        cancelReason: '',
        requests: str(b.requests).trim().slice(0, 200),
        checkedIn: null,
        seq: st.seq,
      });
      st.draft = { hotelId: 0, roomId: 0, checkin: -1, nights: 1, guests: 2 };
      return json({ ok: true, id });
    }
    case 'cancel': {
      const x = st.bookings.find((y) => y.id === Number(b.id));
      const reason = str(b.reason);
      if (!x || x.status !== 'booked') return json({ ok: false, error: 'This booking cannot be cancelled' }, 409);
      if (!CANCEL_REASONS.includes(reason)) return json({ ok: false, error: 'Choose a reason' }, 400);
      x.status = 'cancelled';
      x.cancelReason = reason;
      x.seq = st.seq;
      return json({ ok: true });
    }
    case 'checkin': {
      const x = st.bookings.find((y) => y.id === Number(b.id));
      if (!x || !checkinOpen(x) || x.checkedIn) return json({ ok: false, errors: { arrival: 'Online check-in is not open for this booking' } }, 409);
      const arrival = str(b.arrival);
      const plate = str(b.plate).trim().replace(/\s+/g, ' ').toUpperCase();
      const phone = str(b.phone).trim();
      const errors: Record<string, string> = {};
      if (!ARRIVALS.includes(arrival)) errors.arrival = 'Choose an arrival time';
      const pe = plateError(plate);
      if (pe) errors.plate = pe;
      if (phone.replace(/\D/g, '').length < 10) errors.phone = 'Enter a mobile number, like (206) 555-0182';
      if (Object.keys(errors).length) return json({ ok: false, errors });
      x.checkedIn = { arrival, plate, phone, seq: st.seq };
      x.seq = st.seq;
      return json({ ok: true });
    }
    case 'review': {
      const p = st.past.find((y) => y.id === Number(b.id));
      if (!p || p.review) return json({ ok: false, errors: { title: 'You already reviewed this stay' } }, 409);
      const d = { stars: Number(b.stars), title: str(b.title) };
      const errors = reviewErrors(d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const tripType = str(b.tripType);
      p.review = {
        stars: d.stars,
        title: d.title.trim().replace(/\s+/g, ' '),
        text: str(b.text).trim().slice(0, 1000),
        tripType: TRIP_TYPES.includes(tripType) ? tripType : '',
        seeded: false,
        seq: st.seq,
      };
      st.points += 250;
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleHotel(st: HotelState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) {
    const city = req.query.get('city') ?? '';
    return explorePage(st, ctx, CITIES.includes(city) ? city : '');
  }
  if (head === 'h') {
    const h = hotelOf(st, Number(arg));
    return h ? hotelPage(ctx, h) : notFound(CSS);
  }
  if (head === 'book' && arg === 'dates') return datesPage(st, ctx);
  if (head === 'book' && arg === 'review') return reviewPage(st, ctx);
  if (head === 'trips') return tripsPage(st, ctx, arg === 'past');
  if (head === 'account') return accountPage(st, ctx);
  if (head === 't') {
    const b = st.bookings.find((x) => x.id === Number(arg));
    if (!b) return notFound(CSS);
    if (sub === 'checkin') return checkinOpen(b) && !b.checkedIn ? checkinPage(st, ctx, b) : { status: 303, redirect: `${ctx.base}/t/${b.id}` };
    return tripPage(st, ctx, b, t);
  }
  if (head === 's') {
    const p = st.past.find((x) => x.id === Number(arg));
    if (!p) return notFound(CSS);
    if (sub === 'review') return p.review ? { status: 303, redirect: `${ctx.base}/s/${p.id}` } : reviewFormPage(st, ctx, p);
    return stayPage(st, ctx, p, t);
  }
  return notFound(CSS);
}
