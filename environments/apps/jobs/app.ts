import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc } from '../shared.js';
import {
  ALERT_JOB_TYPES,
  ALERT_PLACES,
  alertErrors,
  applicationFor,
  applyErrors,
  canApply,
  CITIES,
  dayLabel,
  emptyDraft,
  FREQUENCIES,
  freeTimes,
  isActive,
  jobOf,
  KEYWORDS_MAX,
  monthDay,
  needsTime,
  NOTE_MAX,
  resumeOf,
  SHIFT_OPTIONS,
  shortDay,
  START_OPTIONS,
  statusText,
  USER,
  USER_EMAIL,
  USER_HEADLINE,
  USER_PHONE,
  WITHDRAW_REASONS,
  type Alert,
  type Application,
  type Job,
  type JobsState,
} from './state.js';

const ACCENT = '#5f3dc4';
const SOFT = '#e5dbff';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f5f3fa}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #ddd8ea}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5e5a6b}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:110px}
.hello{padding:16px 16px 4px;font-size:24px;font-weight:bold;color:#2b1d52}
.hello .s{font-size:16px;font-weight:normal;color:#57516a;margin-top:4px}
.card{display:block;margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #ddd8ea}
.card h2{margin:0 0 6px;font-size:22px}
.card .d{font-size:16px;color:#4a4560;margin-top:4px}
.card .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:${ACCENT};margin-bottom:6px}
.card .go{color:${ACCENT};font-weight:bold;margin-top:8px;font-size:16px}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.note{background:#fff9db;border-color:#ffe066}
.card.warm{background:#fff4e6;border-color:#ffc078}
.card.gone{background:#fff5f5;border-color:#ffc9c9}
.search{display:flex;gap:8px;margin:8px 12px 4px}
.search input{flex:1;height:50px;border:2px solid #d0cbe0;border-radius:25px;padding:0 18px;font-size:17px;outline:none;background:#fff}
.search input:focus{border-color:${ACCENT}}
.search button{height:50px;padding:0 18px;border-radius:25px;background:${ACCENT};color:#fff;font-size:16px;font-weight:bold}
.cities{display:flex;gap:8px;padding:6px 12px 8px;flex-wrap:wrap}
.cities a{height:40px;padding:0 16px;border-radius:20px;border:2px solid #d0cbe0;background:#fff;display:flex;align-items:center;font-size:16px;font-weight:bold;color:#423c57}
.cities a.on{border-color:${ACCENT};background:${ACCENT};color:#fff}
.jb{display:flex;gap:14px;align-items:center;min-height:98px;padding:12px 16px;background:#fff;border-bottom:1px solid #e8e4f0}
.logo{width:54px;height:54px;border-radius:12px;flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-size:19px;font-weight:bold}
.jb .info{flex:1;min-width:0}
.jb .n{font-size:18px;font-weight:bold;color:#2b1d52}
.jb .s{font-size:15px;color:#57516a;margin-top:2px}
.jb .p{font-size:15px;color:#2b8a3e;font-weight:bold;margin-top:2px}
.jb.off .n{color:#868e96}
.badge{display:inline-block;margin-top:4px;padding:2px 9px;border-radius:10px;font-size:13px;font-weight:bold;background:#e9ecef;color:#495057}
.badge.new{background:#d3f9d8;color:#2b8a3e}
.badge.want{background:#ffe8cc;color:#d9480f}
.badge.set{background:#d0ebff;color:#1864ab}
.badge.done{background:#f1f3f5;color:#868e96}
.jb .go{font-size:22px;color:#a8a2b8}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e8e4f0;font-size:17px}
.kv .k{color:#57516a;flex:none}
.kv .v{font-weight:bold;text-align:right}
.intro{padding:14px 16px 4px;font-size:16px;color:#4a4560}
.blk{padding:6px 16px 12px;background:#fff;font-size:16px;color:#37324a}
.blk ul{margin:6px 0;padding-left:22px}
.blk li{margin:4px 0}
.outline{display:block;margin:12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;line-height:48px;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.outline.on{background:${SOFT}}
.seg{display:flex;gap:10px;margin:12px 12px 8px}
.seg a{flex:1;display:flex;align-items:center;justify-content:center;height:48px;border:2px solid #d0cbe0;border-radius:10px;font-size:17px;font-weight:bold;background:#fff;color:#423c57}
.seg a.on{border-color:${ACCENT};background:${SOFT};color:#2b1d52}
.opt{display:flex;align-items:center;gap:14px;width:100%;min-height:54px;padding:10px 4px;background:#fff;border-bottom:1px solid #f1f3f5;text-align:left}
.opt .info{flex:1}
.opt .t{font-size:17px;font-weight:bold}
.opt .s{font-size:14px;color:#57516a}
.opt .rad{width:22px;height:22px;border-radius:11px;border:2px solid #868e96;flex:none}
.opt.sel .rad{border:7px solid ${ACCENT}}
.field .pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff;text-align:left}
.field.bad input,.field.bad .pick,.field.bad textarea{border-color:#c92a2a}
.field textarea{height:110px}
.field .hint{font-size:15px;color:#57516a;margin-top:6px}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.stepno{padding:12px 16px 0;font-size:14px;font-weight:bold;color:${ACCENT};text-transform:uppercase;letter-spacing:.4px}
.tl{padding:4px 16px 10px;background:#fff}
.tl .st{display:flex;gap:12px;align-items:flex-start;padding:8px 0}
.tl .dot{width:14px;height:14px;border-radius:7px;background:${ACCENT};margin-top:4px;flex:none}
.tl .st.grey .dot{background:#ced4da}
.tl .t{font-size:16px;font-weight:bold}
.tl .s{font-size:14px;color:#57516a}
.day{margin:8px 12px;padding:12px;background:#fff;border-radius:12px;border:1px solid #ddd8ea}
.day h3{margin:2px 4px 10px;font-size:18px;color:#2b1d52}
.times{display:flex;flex-wrap:wrap;gap:8px}
.times .time{height:46px;min-width:98px;padding:0 12px;border-radius:23px;border:2px solid ${ACCENT};color:${ACCENT};font-size:16px;font-weight:bold;display:flex;align-items:center;justify-content:center;background:#fff}
.times .time.on{background:${ACCENT};color:#fff}
.times .time.taken{border-color:#dee2e6;color:#adb5bd;text-decoration:line-through}
.footer{position:fixed;left:0;right:0;bottom:0;z-index:30;background:#fff;border-top:1px solid #ddd8ea;padding:4px 0}
.footer .sum{padding:8px 16px 0;font-size:16px;color:#4a4560;min-height:22px;font-weight:bold}
.footer .primary{margin:8px 12px}
.primary[disabled]{background:#b8a9e0!important}
.al{display:flex;gap:14px;align-items:center;min-height:76px;padding:10px 16px;background:#fff;border-bottom:1px solid #e8e4f0}
.al .info{flex:1;min-width:0}
.al .n{font-size:18px;font-weight:bold}
.al .s{font-size:15px;color:#57516a;margin-top:2px}
.al.paused .n{color:#868e96}
.bar{height:10px;border-radius:5px;background:#e9ecef;margin-top:8px;overflow:hidden}
.bar span{display:block;height:100%;background:${ACCENT}}
.dialog .reasons .opt{min-height:50px}
.dialog .err{color:#c92a2a;font-size:15px;font-weight:bold;min-height:20px;margin:6px 0}
.dialog .acts button.destroy{color:#c92a2a}
`;

type Tab = 'jobs' | 'applications' | 'alerts' | 'profile';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'jobs', label: 'Jobs', glyph: '&#9906;', href: `${ctx.base}/` },
      { id: 'applications', label: 'Applications', glyph: '&#9776;', href: `${ctx.base}/applications` },
      { id: 'alerts', label: 'Alerts', glyph: '&#9873;', href: `${ctx.base}/alerts` },
      { id: 'profile', label: 'Profile', glyph: '&#9786;', href: `${ctx.base}/profile` },
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Saved jobs', `${ctx.base}/saved`],
    ['Job alerts', `${ctx.base}/alerts`],
    ['Help', `${ctx.base}/profile`],
  ]);

const LOGO_COLORS = ['#5f3dc4', '#d9480f', '#2b8a3e', '#1864ab', '#c2255c', '#0b7285', '#5c940d', '#862e9c', '#e67700', '#364fc7'];
const logoColor = (company: string): string => {
  let h = 0;
  for (const ch of company) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return LOGO_COLORS[h % LOGO_COLORS.length] ?? ACCENT;
};
const initials = (name: string): string =>
  name
    .split(/[\s&]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
const logo = (company: string, size = 54): string =>
  `<div class="logo" style="background:${logoColor(company)};width:${size}px;height:${size}px">${esc(initials(company))}</div>`;
const ago = (days: number): string => (days === 0 ? 'Posted today' : days === 1 ? 'Posted yesterday' : days < 30 ? `Posted ${days}d ago` : 'Posted 30+ days ago');
const jobFor = (st: JobsState, a: Application): Job | undefined => jobOf(st, a.jobId);
const resumeName = (st: JobsState, id: number): string => resumeOf(st, id)?.name ?? 'No resume';

function jobRow(st: JobsState, ctx: AppContext, j: Job): string {
  const a = applicationFor(st, j.id);
  const badge = j.closed ? '<span class="badge done">No longer accepting applications</span>' : a ? '<span class="badge set">Applied</span>' : j.posted <= 2 ? '<span class="badge new">New</span>' : '';
  return `<a class="jb${j.closed ? ' off' : ''}" href="${ctx.base}/j/${j.id}" data-job="${esc(j.title)}" data-company="${esc(j.company)}">${logo(j.company)}<div class="info"><div class="n">${esc(j.title)}</div><div class="s">${esc(j.company)}</div><div class="s">${esc(
    j.area,
  )}, ${esc(j.city)} · ${esc(j.type)}</div><div class="p">${esc(j.pay)}</div>${badge}</div><span class="go">&rsaquo;</span></a>`;
}

function jobsPage(st: JobsState, ctx: AppContext, q: string, city: string): AppResponse {
  const want = st.applications.filter(needsTime);
  const next = st.applications
    .filter((a) => isActive(a) && a.interview && a.interview.day >= 0)
    .sort((a, b) => (a.interview?.day ?? 0) - (b.interview?.day ?? 0))[0];
  const ql = q.trim().toLowerCase();
  const shown = st.order
    .map((id) => jobOf(st, id))
    .filter((j): j is Job => !!j && (!city || j.city === city) && (!ql || `${j.title} ${j.company}`.toLowerCase().includes(ql)));
  const chips = ['', ...CITIES]
    .map((c) => {
      const p = new URLSearchParams();
      if (q) p.set('q', q);
      if (c) p.set('city', c);
      const qs = p.toString();
      return `<a class="${c === city ? 'on' : ''}" href="${ctx.base}/${qs ? `?${qs}` : ''}">${esc(c || 'All')}</a>`;
    })
    .join('');
  const wantCard = want.length
    ? `<a class="card warm" href="${ctx.base}/applications"><div class="lbl">Interview requests</div><h2>${esc(
        want.map((a) => jobFor(st, a)?.company ?? '').join(' and '),
      )} ${want.length === 1 ? 'wants' : 'want'} to interview you</h2><div class="d">Pick a time from My applications.</div></a>`
    : '';
  const nextCard =
    next && next.interview
      ? `<a class="card" href="${ctx.base}/a/${next.id}"><div class="lbl">Upcoming interview</div><h2>${esc(jobFor(st, next)?.title ?? '')}</h2><div class="d">${esc(jobFor(st, next)?.company ?? '')}</div><div class="d">${esc(
          shortDay(next.interview.day),
        )} at ${esc(next.interview.time)} · ${esc(next.invite?.format ?? '')}</div></a>`
      : '';
  const body = `${appbar('Hirewell')}
<div class="hello">Good morning, ${esc(USER.split(' ')[0] ?? '')}<div class="s">${st.alerts.filter((a) => a.on).length} alerts on · ${st.profileViews} employers viewed your profile this week</div></div>
${wantCard}${nextCard}
<form class="search" method="get" action="${ctx.base}/" onsubmit="return true">${city ? `<input type="hidden" name="city" value="${esc(city)}">` : ''}<input id="q" name="q" type="search" autocomplete="off" placeholder="Job title or company" value="${esc(q)}"><button type="submit">Search</button></form>
<div class="cities">${chips}</div>
<div class="section">Jobs for you</div>
<div class="intro" style="padding-top:0">Sorted by best match${q ? ` · results for "${esc(q)}"` : ''}</div>
${shown.map((j) => jobRow(st, ctx, j)).join('') || '<div class="empty">No jobs match your search</div>'}
<div class="card note"><div class="lbl">Career tips</div><h2>3 ways to stand out in a retail interview</h2><div class="d">Bring one story about a difficult customer, know the store's products, and ask about the schedule. 4 min read.</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'jobs')}${menu(ctx)}`;
  return renderPage({ title: 'Hirewell', css: CSS, body, ctx, root: true });
}

function jobPage(st: JobsState, ctx: AppContext, j: Job, t: string): AppResponse {
  const a = applicationFor(st, j.id);
  const action = j.closed
    ? `<div class="card gone"><div class="d" style="margin:0">This job is no longer accepting applications.</div></div>`
    : a
      ? `<div class="card ok"><h2>You applied</h2><div class="d">Sent ${esc(monthDay(a.appliedDay))} · ${esc(statusText(a))}</div><a class="go" href="${ctx.base}/a/${a.id}" style="display:block">View application &rsaquo;</a></div>`
      : `<a class="primary" id="apply" href="${ctx.base}/j/${j.id}/apply">Apply now</a>`;
  const ul = (items: readonly string[]): string => `<ul>${items.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`;
  const body = `${appbar('Job details', { back: true })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${logo(j.company, 60)}<div><h2 style="margin:0">${esc(j.title)}</h2><div class="d">${esc(j.company)}</div></div></div>
<div class="d">${esc(j.area)}, ${esc(j.city)} · ${esc(j.type)}</div><div class="d" style="color:#2b8a3e;font-weight:bold">${esc(j.pay)}</div><div class="d">${esc(ago(j.posted))} · ${j.applicants} applicants</div></div>
${action}
<button class="outline${j.saved ? ' on' : ''}" id="save" onclick="save()">${j.saved ? '&#9733; Saved' : '&#9734; Save job'}</button>
<div class="section">About the job</div><div class="blk">${esc(j.about)}</div>
<div class="section">What you'll do</div><div class="blk">${ul(j.duties)}</div>
<div class="section">What we're looking for</div><div class="blk">${ul(j.needs)}</div>
<div class="section">Benefits</div><div class="blk">${ul(j.perks)}</div>
<div class="section">About ${esc(j.company)}</div><div class="blk">${esc(j.company)} is hiring in ${esc(j.city)}. ${j.applicants > 60 ? 'This job gets a lot of applicants: apply early.' : 'Employers usually reply within a week.'}</div>
<div class="spacer"></div>${bottomNav(ctx, 'jobs')}${menu(ctx)}${t === 'saved' ? toast('Saved') : ''}`;
  const script = `let busy=false;function save(){if(busy)return;busy=true;api('save',{id:${j.id}}).then(r=>{busy=false;const b=document.getElementById('save');b.classList.toggle('on',!!r.saved);b.innerHTML=r.saved?'&#9733; Saved':'&#9734; Save job';toast(r.saved?'Saved':'Removed from saved jobs')})}
function toast(t){let el=document.getElementById('toast');if(!el){el=document.createElement('div');el.id='toast';el.className='toast';el.setAttribute('role','status');document.body.appendChild(el)}el.innerHTML='<span></span>';el.firstChild.textContent=t;el.hidden=false;setTimeout(()=>{el.hidden=true},2500)}`;
  return renderPage({ title: j.title, css: CSS, body, ctx, script });
}

function applyFormPage(st: JobsState, ctx: AppContext, j: Job): AppResponse {
  const d = st.draft.jobId === j.id ? st.draft : { ...emptyDraft(st.defaultResumeId), jobId: j.id };
  const resume = resumeOf(st, d.resumeId) ?? resumeOf(st, st.defaultResumeId);
  const starts = START_OPTIONS.map(
    (o) =>
      `<button class="opt${o === d.start ? ' sel' : ''}" role="radio" aria-checked="${o === d.start}" data-v="${esc(o)}" onclick="pickStart(this)"><span class="rad"></span><div class="info"><div class="t">${esc(o)}</div></div></button>`,
  ).join('');
  const shifts = SHIFT_OPTIONS.map((o) => `<button class="chip${d.shifts.includes(o) ? ' on' : ''}" data-v="${esc(o)}" aria-pressed="${d.shifts.includes(o)}" onclick="shift(this)">${esc(o)}</button>`).join('');
  const updated = Object.fromEntries(st.resumes.map((r) => [r.name, r.updated]));
  const ids = Object.fromEntries(st.resumes.map((r) => [r.name, r.id]));
  const body = `${appbar('Apply', { back: true, menu: false })}
<div class="stepno">Step 1 of 2</div>
<div class="intro"><b style="font-size:19px;color:#2b1d52">${esc(j.title)}</b><br>${esc(j.company)} · ${esc(j.area)}, ${esc(j.city)}</div>
<div class="section">Contact info</div>
<div class="kv"><span class="k">Name</span><span class="v">${esc(USER)}</span></div>
<div class="kv"><span class="k">Email</span><span class="v">${esc(USER_EMAIL)}</span></div>
<div class="field" id="f-phone"><label for="phone">Phone</label><input id="phone" type="tel" autocomplete="off" value="${esc(d.phone)}"><div class="ferr" id="e-phone"></div></div>
<div class="field" id="f-resume"><label>Resume</label><button class="pick" id="resume-btn" onclick="show('resumes')"><span id="resume-v">${esc(resume?.name ?? 'Choose a resume')}</span><span>&#9662;</span></button><div class="hint" id="resume-h">${esc(
    resume?.updated ?? '',
  )}</div><div class="ferr" id="e-resume"></div></div>
<div class="field" id="f-start"><label>When can you start?</label><div id="start" role="radiogroup">${starts}</div><div class="ferr" id="e-start"></div></div>
<div class="field" id="f-shifts"><label>Which shifts can you work? (optional)</label><div class="chips">${shifts}</div></div>
<div class="field" id="f-note"><label for="note">Note to the employer (optional)</label><textarea id="note" maxlength="${NOTE_MAX + 50}" placeholder="Anything you'd like ${esc(j.company)} to know">${esc(d.note)}</textarea><div class="ferr" id="e-note"></div></div>
<button class="primary" id="continue" onclick="next()">Continue</button><div class="spacer"></div>
${pickerDialog('resumes', 'Choose a resume', st.resumes.map((r) => r.name), resume?.name ?? '', 'pickResume')}`;
  const script = `const V={resume:${resume?.id ?? 0},start:${JSON.stringify(d.start)},shifts:${JSON.stringify(d.shifts)}};const U=${JSON.stringify(updated)};const IDS=${JSON.stringify(ids)};
function pickResume(v){V.resume=IDS[v]||0;document.getElementById('resume-v').textContent=v;document.getElementById('resume-h').textContent=U[v]||'';document.getElementById('e-resume').textContent='';document.getElementById('f-resume').classList.remove('bad');
 for(const o of document.querySelectorAll('#resumes .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('resumes')}
function pickStart(el){V.start=el.dataset.v;document.getElementById('e-start').textContent='';document.getElementById('f-start').classList.remove('bad');for(const o of document.querySelectorAll('#start .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
function shift(el){const v=el.dataset.v;const i=V.shifts.indexOf(v);if(i<0)V.shifts.push(v);else V.shifts.splice(i,1);el.classList.toggle('on',i<0);el.setAttribute('aria-pressed',String(i<0))}
let busy=false;function next(){if(busy)return;for(const k of ['phone','resume','start','note']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('draft',{job:${j.id},resume:V.resume,start:V.start,shifts:V.shifts,phone:document.getElementById('phone').value,note:document.getElementById('note').value}).then(r=>{busy=false;if(r.ok){location.href=BASE+'/j/${j.id}/apply/review';return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Apply', css: CSS, body, ctx, script });
}

function applyReviewPage(st: JobsState, ctx: AppContext, j: Job): AppResponse {
  const d = st.draft;
  if (d.jobId !== j.id || Object.keys(applyErrors(st, d)).length) return { status: 303, redirect: `${ctx.base}/j/${j.id}/apply` };
  const body = `${appbar('Review your application', { back: true, menu: false })}
<div class="stepno">Step 2 of 2</div>
<div class="card"><div style="display:flex;gap:14px;align-items:center">${logo(j.company, 56)}<div><h2 style="margin:0">${esc(j.title)}</h2><div class="d">${esc(j.company)} · ${esc(j.city)}</div></div></div></div>
<div class="kv"><span class="k">Name</span><span class="v">${esc(USER)}</span></div>
<div class="kv"><span class="k">Email</span><span class="v">${esc(USER_EMAIL)}</span></div>
<div class="kv"><span class="k">Phone</span><span class="v">${esc(d.phone)}</span></div>
<div class="kv"><span class="k">Resume</span><span class="v" id="rv-resume">${esc(resumeName(st, d.resumeId))}</span></div>
<div class="kv"><span class="k">Can start</span><span class="v" id="rv-start">${esc(d.start)}</span></div>
<div class="kv"><span class="k">Shifts</span><span class="v">${esc(d.shifts.length ? d.shifts.join(', ') : 'Any')}</span></div>
<div class="kv"><span class="k">Note</span><span class="v">${esc(d.note || 'None')}</span></div>
<div class="intro">By submitting, you agree to share your profile and resume with ${esc(j.company)}. You can withdraw your application at any time.</div>
<div class="error" id="err"></div>
<button class="primary" id="submit" onclick="send()">Submit application</button>
<a class="outline" href="${ctx.base}/j/${j.id}/apply">Edit application</a><div class="spacer"></div>`;
  const script = `let busy=false;function send(){if(busy)return;busy=true;api('apply',{job:${j.id}}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/a/'+r.id+'?toast=applied');return}document.getElementById('err').textContent=r.error||'Could not send your application'})}`;
  return renderPage({ title: 'Review your application', css: CSS, body, ctx, script });
}

function appRow(st: JobsState, ctx: AppContext, a: Application): string {
  const j = jobFor(st, a);
  const s = statusText(a);
  const cls = s === 'Interview requested' ? 'want' : s === 'Interview scheduled' ? 'set' : s === 'Withdrawn' || s === 'Not selected' ? 'done' : '';
  return `<a class="jb${isActive(a) ? '' : ' off'}" href="${ctx.base}/a/${a.id}" data-job="${esc(j?.title ?? '')}" data-company="${esc(j?.company ?? '')}">${logo(j?.company ?? '')}<div class="info"><div class="n">${esc(j?.title ?? '')}</div><div class="s">${esc(
    j?.company ?? '',
  )}</div><div class="s">Applied ${esc(monthDay(a.appliedDay))}</div><span class="badge ${cls}">${esc(s)}</span></div><span class="go">&rsaquo;</span></a>`;
}

function applicationsPage(st: JobsState, ctx: AppContext, closed: boolean): AppResponse {
  const order = (x: Application, y: Application): number => y.appliedDay - x.appliedDay || y.id - x.id;
  const active = st.applications.filter(isActive).sort(order);
  const done = st.applications.filter((a) => !isActive(a)).sort(order);
  const seg = `<div class="seg"><a class="${closed ? '' : 'on'}" href="${ctx.base}/applications">Active (${active.length})</a><a class="${closed ? 'on' : ''}" href="${ctx.base}/applications/closed">Closed (${done.length})</a></div>`;
  const rows = closed
    ? `<div class="section">Closed applications</div>${done.map((a) => appRow(st, ctx, a)).join('') || '<div class="empty">Nothing here</div>'}`
    : active.map((a) => appRow(st, ctx, a)).join('') || `<div class="empty">No active applications. <a href="${ctx.base}/">Find jobs</a></div>`;
  const body = `${appbar('My applications')}${seg}${rows}
<div class="spacer"></div>${bottomNav(ctx, 'applications')}${menu(ctx)}`;
  return renderPage({ title: 'My applications', css: CSS, body, ctx, root: true });
}

function applicationPage(st: JobsState, ctx: AppContext, a: Application, t: string): AppResponse {
  const j = jobFor(st, a);
  const company = j?.company ?? '';
  const iv = a.interview;
  const top = a.withdrawn
    ? `<div class="card gone"><h2>Application withdrawn</h2><div class="d">Reason: ${esc(a.withdrawReason)}</div><div class="d">We let ${esc(company)} know you're no longer interested.</div></div>`
    : iv && iv.seq > 0
      ? `<div class="card ok"><h2>Interview booked</h2><div class="d">${esc(dayLabel(iv.day))} at ${esc(iv.time)}. We sent the details to ${esc(USER_EMAIL)}.</div></div>`
      : !a.seeded
        ? `<div class="card ok"><h2>Application sent</h2><div class="d">${esc(company)} will get your resume today. We'll let you know when they view it.</div></div>`
        : '';
  let interview = '';
  if (isActive(a) && a.invite && iv)
    interview = `<div class="section">Interview scheduled</div>
<div class="kv"><span class="k">Date</span><span class="v" id="iv-day">${esc(dayLabel(iv.day))}</span></div>
<div class="kv"><span class="k">Time</span><span class="v" id="iv-time">${esc(iv.time)}</span></div>
<div class="kv"><span class="k">Type</span><span class="v">${esc(a.invite.format)} · ${a.invite.minutes} min</span></div>
<div class="kv"><span class="k">Where</span><span class="v">${esc(a.invite.where)}</span></div>
<div class="intro">Need a different time? Message ${esc(company)} from your email.</div>`;
  else if (needsTime(a) && a.invite)
    interview = `<div class="card warm"><div class="lbl">Interview request</div><div class="d" style="margin:0 0 8px">${esc(a.invite.message)}</div><div class="d">${esc(a.invite.format)} · ${a.invite.minutes} min · ${esc(a.invite.where)}</div></div>
<a class="primary" id="choose-time" href="${ctx.base}/a/${a.id}/interview">Choose an interview time</a>`;
  const steps: [string, string, boolean][] = [['Application sent', monthDay(a.appliedDay), true]];
  if (a.stage !== 'applied') steps.push(['Viewed by employer', monthDay(a.appliedDay + 2), true]);
  if (a.invite) steps.push(['Interview requested', monthDay(Math.min(-1, a.appliedDay + 4)), true]);
  if (a.invite && iv) steps.push(['Interview scheduled', `${shortDay(iv.day)} at ${iv.time}`, true]);
  if (a.withdrawn) steps.push(['Withdrawn', a.withdrawReason, true]);
  else if (a.stage === 'not_selected') steps.push(['Not selected', `${company} chose other candidates`, true]);
  else if (!a.invite) steps.push(['Waiting to hear back', 'Employers usually reply within 2 weeks', false]);
  const timeline = steps.map(([x, s, done]) => `<div class="st${done ? '' : ' grey'}"><span class="dot"></span><div><div class="t">${esc(x)}</div><div class="s">${esc(s)}</div></div></div>`).join('');
  const reasons = WITHDRAW_REASONS.map(
    (r) => `<button class="opt" role="radio" aria-checked="false" data-v="${esc(r)}" onclick="pickReason(this)"><span class="rad"></span><div class="info"><div class="t">${esc(r)}</div></div></button>`,
  ).join('');
  const dialog = isActive(a)
    ? `<div id="withdraw" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Withdraw your application?"><h2>Withdraw your application?</h2>
<p>We'll tell ${esc(company)} you're no longer interested in the ${esc(j?.title ?? '')} job${iv ? ' and cancel your interview' : ''}. You can't undo this.</p>
<p style="margin-bottom:4px"><b>Why are you withdrawing?</b></p><div class="reasons" role="radiogroup">${reasons}</div><div class="err" id="werr"></div>
<div class="acts"><button onclick="hide('withdraw')">Keep application</button><button class="destroy" id="withdraw-ok" onclick="doWithdraw()">Withdraw</button></div></div></div>`
    : '';
  const body = `${appbar('Application', { back: true })}${top}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${logo(company, 56)}<div><h2 style="margin:0">${esc(j?.title ?? '')}</h2><div class="d">${esc(company)}</div></div></div><div class="d">${esc(j ? `${j.area}, ${j.city} · ${j.pay}` : '')}</div></div>
${interview}
<div class="section">Status</div><div class="tl">${timeline}</div>
<div class="section">Your application</div>
<div class="kv"><span class="k">Resume</span><span class="v">${esc(resumeName(st, a.resumeId))}</span></div>
<div class="kv"><span class="k">Can start</span><span class="v">${esc(a.start)}</span></div>
<div class="kv"><span class="k">Phone</span><span class="v">${esc(a.phone)}</span></div>
<div class="kv"><span class="k">Sent</span><span class="v">${esc(dayLabel(a.appliedDay))}</span></div>
<a class="outline" href="${ctx.base}/j/${a.jobId}">View job posting</a>
${isActive(a) ? `<button class="outline danger" id="withdraw-btn" onclick="openWithdraw()">Withdraw application</button>` : ''}
<div class="spacer"></div>${bottomNav(ctx, 'applications')}${menu(ctx)}${dialog}${
    t === 'applied' && !a.seeded && !a.withdrawn ? toast('Application sent') : t === 'withdrawn' && a.withdrawn ? toast('Application withdrawn') : t === 'interview' && iv ? toast('Interview booked') : ''
  }`;
  const script = `let R='';
function openWithdraw(){R='';for(const o of document.querySelectorAll('.reasons .opt')){o.classList.remove('sel');o.setAttribute('aria-checked','false')}document.getElementById('werr').textContent='';show('withdraw')}
function pickReason(el){R=el.dataset.v;document.getElementById('werr').textContent='';for(const o of document.querySelectorAll('.reasons .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function doWithdraw(){if(!R){document.getElementById('werr').textContent='Choose a reason';return}if(busy)return;busy=true;
 api('withdraw',{id:${a.id},reason:R}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/a/${a.id}?toast=withdrawn');return}document.getElementById('werr').textContent=r.error||'Could not withdraw'})}`;
  return renderPage({ title: 'Application', css: CSS, body, ctx, script });
}

function interviewPage(st: JobsState, ctx: AppContext, a: Application): AppResponse {
  const j = jobFor(st, a);
  const inv = a.invite!;
  const company = j?.company ?? '';
  const days = inv.days
    .filter((d) => d.day >= 0)
    .map((d) => {
      const label = dayLabel(d.day);
      const free = freeTimes(d);
      const chips = d.times
        .map((time) =>
          free.includes(time)
            ? `<button class="time" data-day="${esc(label)}" data-time="${esc(time)}" aria-label="${esc(label)} at ${esc(time)}" aria-pressed="false" onclick="pick(this)">${esc(time)}</button>`
            : `<span class="time taken" aria-disabled="true" aria-label="${esc(label)} at ${esc(time)}, taken">${esc(time)}</span>`,
        )
        .join('');
      return `<div class="day" data-day="${esc(label)}"><h3>${esc(label)}</h3><div class="times">${chips}</div></div>`;
    })
    .join('');
  const body = `${appbar('Choose a time', { back: true, menu: false })}
<div class="card"><div style="display:flex;gap:14px;align-items:center">${logo(company, 52)}<div><h2 style="margin:0;font-size:20px">${esc(j?.title ?? '')}</h2><div class="d">${esc(company)}</div></div></div>
<div class="d">${esc(inv.format)} · ${inv.minutes} minutes</div><div class="d">${esc(inv.where)}</div></div>
<div class="intro">Pick a time that works for you. Times are in Mountain Time; crossed-out times are taken.</div>
${days}
<div class="spacer" style="height:160px"></div>
<div class="footer"><div class="sum" id="sum">No time picked yet</div><button class="primary" id="go" disabled onclick="openBook()">Continue</button></div>
<div id="book" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Book this interview?"><h2>Book this interview?</h2>
<p id="book-text"></p><p>${esc(company)} will get a calendar invite. You can withdraw your application later if plans change.</p><div class="err" id="berr"></div>
<div class="acts"><button id="book-back" onclick="hide('book')">Go back</button><button id="book-ok" onclick="book()">Book interview</button></div></div></div>`;
  const script = `const V={day:'',time:''};const CO=${JSON.stringify(company)};const FMT=${JSON.stringify(`${inv.format}, ${inv.minutes} minutes`)};
function pick(el){V.day=el.dataset.day;V.time=el.dataset.time;for(const b of document.querySelectorAll('.times button.time')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on))}
 document.getElementById('sum').textContent=V.day+' at '+V.time;document.getElementById('go').disabled=false}
function openBook(){if(!V.time)return;document.getElementById('book-text').textContent=V.day+' at '+V.time+' with '+CO+' ('+FMT+').';document.getElementById('berr').textContent='';show('book')}
let busy=false;function book(){if(busy)return;busy=true;api('interview',{id:${a.id},day:V.day,time:V.time}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/a/${a.id}?toast=interview');return}document.getElementById('berr').textContent=r.error||'Could not book this time'})}`;
  return renderPage({ title: 'Choose a time', css: CSS, body, ctx, script });
}

function alertRow(a: Alert): string {
  const type = a.jobType === 'Any' ? '' : ` · ${a.jobType}`;
  return `<div class="al${a.on ? '' : ' paused'}" data-kw="${esc(a.keywords)}" data-city="${esc(a.city)}"><div class="info"><div class="n">${esc(a.keywords)}</div><div class="s">${esc(a.city)}${esc(type)} · ${esc(a.frequency)}${
    a.on ? '' : ' · Paused'
  }</div>${a.seeded ? '' : '<span class="badge new">New</span>'}</div><button class="switch${a.on ? ' on' : ''}" role="switch" aria-checked="${a.on}" aria-label="${esc(a.keywords)} in ${esc(a.city)}" data-id="${a.id}" onclick="flip(this)"></button></div>`;
}

function alertsPage(st: JobsState, ctx: AppContext, t: string): AppResponse {
  const fresh = st.alerts.filter((a) => !a.seeded).sort((a, b) => b.seq - a.seq)[0];
  const body = `${appbar('Job alerts')}
${
  fresh
    ? `<div class="card ok"><h2>Alert created</h2><div class="d">We'll email ${esc(USER_EMAIL)} ${esc(fresh.frequency === 'Instantly' ? 'as soon as' : fresh.frequency === 'Daily' ? 'each morning when' : 'every Monday when')} new "${esc(fresh.keywords)}" jobs are posted in ${esc(fresh.city)}.</div></div>`
    : ''
}
<div class="intro">Get an email when new jobs match your search. Turn an alert off to pause it.</div>
<a class="primary" id="new-alert" href="${ctx.base}/alerts/new">+ New alert</a>
<div class="section">Your alerts (${st.alerts.length})</div>
${st.alerts.map(alertRow).join('')}
<div class="card note"><div class="lbl">Tip</div><div class="d" style="margin:0">Alerts with a job title ("Line Cook") find more jobs than alerts with a company name.</div></div>
<div class="spacer"></div>${bottomNav(ctx, 'alerts')}${menu(ctx)}${t === 'created' && fresh ? toast('Alert created') : ''}`;
  const script = `let busy=false;function flip(el){if(busy)return;busy=true;const on=el.getAttribute('aria-checked')!=='true';api('alert-toggle',{id:Number(el.dataset.id),on}).then(r=>{busy=false;if(!r.ok)return;el.classList.toggle('on',on);el.setAttribute('aria-checked',String(on));
 const row=el.closest('.al');row.classList.toggle('paused',!on);const s=row.querySelector('.s');s.textContent=s.textContent.replace(/ · Paused$/,'')+(on?'':' · Paused')})}`;
  return renderPage({ title: 'Job alerts', css: CSS, body, ctx, script, root: true });
}

function alertFormPage(ctx: AppContext): AppResponse {
  const freqs = FREQUENCIES.map(
    ([f, s]) =>
      `<button class="opt${f === 'Daily' ? ' sel' : ''}" role="radio" aria-checked="${f === 'Daily'}" data-v="${esc(f)}" onclick="pickFreq(this)"><span class="rad"></span><div class="info"><div class="t">${esc(f)}</div><div class="s">${esc(s)}</div></div></button>`,
  ).join('');
  const types = ALERT_JOB_TYPES.map((x) => `<button class="chip${x === 'Any' ? ' on' : ''}" data-v="${esc(x)}" aria-pressed="${x === 'Any'}" onclick="pickType(this)">${esc(x)}</button>`).join('');
  const body = `${appbar('New job alert', { back: true, menu: false })}
<div class="intro">Tell us what you're looking for and we'll email you new jobs.</div>
<div class="field" id="f-keywords"><label for="kw">Keywords</label><input id="kw" type="text" autocomplete="off" maxlength="${KEYWORDS_MAX + 20}" placeholder="Job title, skill or company"><div class="ferr" id="e-keywords"></div></div>
<div class="field" id="f-city"><label>Location</label><button class="pick" id="city-btn" onclick="show('places')"><span id="city-v">Anywhere</span><span>&#9662;</span></button><div class="ferr" id="e-city"></div></div>
<div class="field" id="f-type"><label>Job type</label><div class="chips">${types}</div></div>
<div class="field" id="f-frequency"><label>How often?</label><div id="freq" role="radiogroup">${freqs}</div><div class="ferr" id="e-frequency"></div></div>
<button class="primary" id="create" onclick="create()">Create alert</button><div class="spacer"></div>
${pickerDialog('places', 'Location', ALERT_PLACES, 'Anywhere', 'pickPlace')}`;
  const script = `const V={city:'Anywhere',jobType:'Any',frequency:'Daily'};
function pickPlace(v){V.city=v;document.getElementById('city-v').textContent=v;for(const o of document.querySelectorAll('#places .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('places')}
function pickType(el){V.jobType=el.dataset.v;for(const b of document.querySelectorAll('#f-type .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-pressed',String(on))}}
function pickFreq(el){V.frequency=el.dataset.v;for(const o of document.querySelectorAll('#freq .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}}
let busy=false;function create(){if(busy)return;for(const k of ['keywords','city','frequency']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 busy=true;api('alert',{keywords:document.getElementById('kw').value,city:V.city,jobType:V.jobType,frequency:V.frequency}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/alerts?toast=created');return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'New job alert', css: CSS, body, ctx, script });
}

function profilePage(st: JobsState, ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const sw = (key: string, t: string, s: string, on: boolean): string =>
    `<div class="row"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div><button class="switch${on ? ' on' : ''}" role="switch" aria-checked="${on}" aria-label="${esc(t)}" data-k="${key}" onclick="pref(this)"></button></div>`;
  const init = USER.split(' ').map((w) => w[0] ?? '').join('');
  const resumes = st.resumes
    .map((r) => `<div class="row"><div class="info"><div class="t">${esc(r.name)}</div><div class="s">${esc(r.updated)} · ${r.pages} page${r.pages === 1 ? '' : 's'}${r.id === st.defaultResumeId ? ' · Default' : ''}</div></div></div>`)
    .join('');
  const body = `${appbar('Profile')}
<div class="row"><div class="av" style="background:${ACCENT}">${esc(init)}</div><div class="info"><div class="t">${esc(USER)}</div><div class="s">${esc(USER_HEADLINE)}</div></div></div>
<div class="card"><div class="lbl">Profile strength</div><div class="d" style="margin:0">Good · add a photo and a second reference to reach All-star</div><div class="bar"><span style="width:80%"></span></div></div>
${sw('openToWork', 'Open to work', 'Employers can see you are looking', st.openToWork)}
<div class="section">Your resumes</div>${resumes}
<div class="intro">To upload or replace a resume, use hirewell.com on a computer.</div>
<div class="section">Contact</div>${row('Email', USER_EMAIL)}${row('Phone', USER_PHONE)}
<div class="section">Job preferences</div>${row('Job types', 'Part-time, Full-time')}${row('Locations', 'Denver, Boulder, Aurora')}${row('Desired pay', '$18 an hour or more')}
<div class="section">Notifications</div>${sw('interviews', 'Interview requests', 'Push and email', st.notify.interviews)}${sw('messages', 'Messages from employers', 'Push', st.notify.messages)}${sw('tips', 'Career tips', 'Weekly email', st.notify.tips)}
<div class="section">More</div><a class="row" href="${ctx.base}/saved"><div class="info"><div class="t">Saved jobs</div><div class="s">${st.jobs.filter((j) => j.saved).length} saved</div></div></a>${row('Help center', 'Answers to common questions')}${row('Privacy', 'Who can see your profile')}
<div class="spacer"></div>${bottomNav(ctx, 'profile')}${menu(ctx)}`;
  const script = `function pref(el){const on=el.getAttribute('aria-checked')!=='true';api('pref',{key:el.dataset.k,on}).then(r=>{if(!r.ok)return;el.classList.toggle('on',on);el.setAttribute('aria-checked',String(on))})}`;
  return renderPage({ title: 'Profile', css: CSS, body, ctx, script, root: true });
}

function savedPage(st: JobsState, ctx: AppContext): AppResponse {
  const saved = st.jobs.filter((j) => j.saved);
  const body = `${appbar('Saved jobs', { back: true })}
${saved.map((j) => jobRow(st, ctx, j)).join('') || '<div class="empty">No saved jobs. Tap Save job on a job to keep it here.</div>'}
<div class="spacer"></div>${bottomNav(ctx, 'jobs')}${menu(ctx)}`;
  return renderPage({ title: 'Saved jobs', css: CSS, body, ctx });
}

function handleApi(st: JobsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'save': {
      const j = jobOf(st, Number(b.id));
      if (!j) return json({ ok: false }, 404);
      j.saved = !j.saved;
      return json({ ok: true, saved: j.saved });
    }
    case 'draft': {
      const j = jobOf(st, Number(b.job));
      if (!j || !canApply(st, j)) return json({ ok: false, errors: { start: 'This job is not accepting applications' } }, 409);
      const shifts = Array.isArray(b.shifts) ? b.shifts.filter((x): x is string => typeof x === 'string' && SHIFT_OPTIONS.includes(x)) : [];
      const d = { jobId: j.id, resumeId: Number(b.resume), start: str(b.start), shifts, phone: str(b.phone).trim(), note: str(b.note).trim() };
      const errors = applyErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      st.draft = d;
      return json({ ok: true });
    }
    case 'apply': {
      const j = jobOf(st, Number(b.job));
      const d = st.draft;
      if (!j || d.jobId !== j.id || !canApply(st, j) || Object.keys(applyErrors(st, d)).length) return json({ ok: false, error: 'Start your application again from the job' }, 409);
      const id = 601 + st.applications.filter((x) => !x.seeded).length;
      st.applications.push({
        id,
        jobId: j.id,
        resumeId: d.resumeId,
        start: d.start,
        shifts: [...d.shifts],
        phone: d.phone,
        note: d.note,
        appliedDay: 0,
        stage: 'applied',
        withdrawn: false,
        withdrawReason: '',
        invite: null,
        interview: null,
        seeded: false,
        seq: st.seq,
      });
      j.applicants += 1;
      st.draft = emptyDraft(st.defaultResumeId);
      return json({ ok: true, id });
    }
    case 'withdraw': {
      const a = st.applications.find((x) => x.id === Number(b.id));
      const reason = str(b.reason);
      if (!a || !isActive(a)) return json({ ok: false, error: 'This application cannot be withdrawn' }, 409);
      if (!WITHDRAW_REASONS.includes(reason)) return json({ ok: false, error: 'Choose a reason' }, 400);
      a.withdrawn = true;
      a.withdrawReason = reason;
      a.seq = st.seq;
      return json({ ok: true });
    }
    case 'interview': {
      const a = st.applications.find((x) => x.id === Number(b.id));
      if (!a || !needsTime(a) || !a.invite) return json({ ok: false, error: 'This interview cannot be booked' }, 409);
      const d = a.invite.days.find((x) => dayLabel(x.day) === str(b.day));
      const time = str(b.time);
      if (!d || !freeTimes(d).includes(time)) return json({ ok: false, error: 'That time is no longer available' }, 409);
      a.interview = { day: d.day, time, seq: st.seq };
      a.seq = st.seq;
      return json({ ok: true });
    }
    case 'alert': {
      const d = { keywords: str(b.keywords).trim().replace(/\s+/g, ' '), city: str(b.city), frequency: str(b.frequency) };
      const errors = alertErrors(st, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const jobType = ALERT_JOB_TYPES.includes(str(b.jobType)) ? str(b.jobType) : 'Any';
      st.alerts.push({ id: 451 + st.alerts.filter((x) => !x.seeded).length, keywords: d.keywords, city: d.city, jobType, frequency: d.frequency, on: true, seeded: false, seq: st.seq });
      return json({ ok: true });
    }
    case 'alert-toggle': {
      const a = st.alerts.find((x) => x.id === Number(b.id));
      if (!a) return json({ ok: false }, 404);
      a.on = b.on === true;
      return json({ ok: true });
    }
    case 'pref': {
      const on = b.on === true;
      const key = str(b.key);
      if (key === 'openToWork') st.openToWork = on;
      else if (key === 'interviews' || key === 'messages' || key === 'tips') st.notify[key] = on;
      else return json({ ok: false }, 400);
      return json({ ok: true });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleJobs(st: JobsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub, sub2] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) {
    const city = req.query.get('city') ?? '';
    return jobsPage(st, ctx, (req.query.get('q') ?? '').slice(0, 60), CITIES.includes(city) ? city : '');
  }
  if (head === 'j') {
    const j = jobOf(st, Number(arg));
    if (!j) return notFound(CSS);
    if (sub === 'apply') {
      if (!canApply(st, j)) return { status: 303, redirect: `${ctx.base}/j/${j.id}` };
      return sub2 === 'review' ? applyReviewPage(st, ctx, j) : applyFormPage(st, ctx, j);
    }
    return jobPage(st, ctx, j, t);
  }
  if (head === 'applications') return applicationsPage(st, ctx, arg === 'closed');
  if (head === 'a') {
    const a = st.applications.find((x) => x.id === Number(arg));
    if (!a) return notFound(CSS);
    if (sub === 'interview') return needsTime(a) ? interviewPage(st, ctx, a) : { status: 303, redirect: `${ctx.base}/a/${a.id}` };
    return applicationPage(st, ctx, a, t);
  }
  if (head === 'alerts') return arg === 'new' ? alertFormPage(ctx) : alertsPage(st, ctx, t);
  if (head === 'profile') return profilePage(st, ctx);
  if (head === 'saved') return savedPage(st, ctx);
  return notFound(CSS);
}
