import type { I18n } from '../../i18n/index.ts';
import { DICTIONARIES } from '../../i18n/languages.ts';
import { widgetI18n } from '../../i18n/widget.ts';
import type { BookingTenant } from '../../tenants/booking.ts';

/**
 * The loader at `/embed/booking.js`, small hand-written ES5 (budget 2 KB gzipped). On an origin
 * not allowed it inserts a "Book at <tenant>" link and says in the console which origin to allow;
 * else an iframe of `/embed/booking` per tag with its `data-*` values (both keep the script's
 * `?tenant=`), resized from the widget's `postMessage` (origin and source checked, height capped),
 * whose events it re-dispatches.
 */
type EmbedTexts = { link: string; title: string };

const LOADER = `(function(c){
var d=document,w=window,P='Masthead booking embed: ',o=location.origin,
keys=['property','check-in','check-out','nights','adults','children','room','locale'],known=keys.concat('title','masthead-ready'),
list=d.querySelectorAll('script[src*="/embed/booking.js"]');
for(var i=0;i<list.length;i++)setup(list[i]);
function put(s,e){s.parentNode.insertBefore(e,s.nextSibling)}
function camel(k){return k.replace(/-(\\w)/,function(_,c){return c.toUpperCase()})}
function setup(s){
if(s.getAttribute('data-masthead-ready'))return;
s.setAttribute('data-masthead-ready','1');
var src=new URL(s.src,location.href),url=new URL('booking',src),q=url.searchParams,at=s.attributes,k,n,v,t=src.searchParams.get('tenant');
if(t)q.set('tenant',t);
var lang=(s.getAttribute('data-locale')||'').split('-')[0].toLowerCase(),tx=c.texts[lang]||c.texts['default'];
if(o!==src.origin&&c.origins.indexOf(o)<0){
var a=d.createElement('a'),stay=new URL('../stay',src);
if(t)stay.searchParams.set('tenant',t);
for(k=0;k<keys.length-1;k++){v=s.getAttribute('data-'+keys[k]);if(v)stay.searchParams.set(camel(keys[k]),v)}
a.href=stay.href;
a.textContent=tx.link;
put(s,a);
console.error(P+'this page\\u2019s origin '+o+' may not show the '+c.name+' booking widget, so only a link to '+src.origin+' was inserted. Ask '+c.name+' to add "'+o+'" to its allowed embed origins (lodging.allowedEmbedOrigins).');
return;
}
for(k=0;k<at.length;k++){
n=at[k].name.slice(5);
if(at[k].name.slice(0,5)==='data-'&&known.indexOf(n)<0)console.warn(P+'data-'+n+' was ignored: '+(n==='currency'?'prices are always shown in the property\\u2019s own currency, the one it charges.':'not an attribute of this embed (use data-'+keys.join(', data-')+' or data-title).'));
}
for(k=0;k<keys.length;k++){
v=s.getAttribute('data-'+keys[k]);
if(v)q.set(camel(keys[k]),v);
else if(v==='')console.warn(P+'data-'+keys[k]+' is empty and was ignored.');
}
q.set('origin',o);
var f=d.createElement('iframe');
f.src=url.href;
f.title=s.getAttribute('data-title')||tx.title;
f.style.cssText='display:block;width:100%;border:0;height:720px';
put(s,f);
w.addEventListener('message',function(e){
var m=e.data,j;
if(e.origin!==src.origin||e.source!==f.contentWindow||!m||typeof m!=='object')return;
if(m.type==='masthead:resize'){
var h=Number(m.height);
if(h>0)f.style.height=Math.min(Math.max(Math.ceil(h),240),4000)+'px';
}else if(/^masthead:(search|room-chosen|booking-confirmed)$/.test(m.type)){
f.dispatchEvent(new CustomEvent(m.type,{bubbles:true,detail:m.booking||m}));
}else if(m.type==='masthead:problems'){
for(j=0;j<(m.errors||[]).length;j++)console.error(P+m.errors[j]);
for(j=0;j<(m.warnings||[]).length;j++)console.warn(P+m.warnings[j]);
}
});
}
})`;

/**
 * The loader for one tenant: its name (the fallback link), the origins that may frame the widget
 * (the site's own always may), and the link's and the iframe's texts in every interface language (a
 * tag's `data-locale` picks one; `default`: the tenant's own, the words the framed widget then
 * shows). Its config is JSON, so names and origins cannot break out of it.
 */
export function embedLoader(tenant: BookingTenant): string {
  const say = (i18n: I18n): EmbedTexts => ({
    link: i18n.t('booking.bookAt', { name: tenant.name }),
    title: i18n.t('booking.title'),
  });
  const texts: Record<string, EmbedTexts> = { default: say(widgetI18n(tenant, undefined)) };
  for (const language of Object.keys(DICTIONARIES))
    texts[language] = say(widgetI18n(tenant, language));
  const origins = tenant.lodging.allowedEmbedOrigins;
  const json = JSON.stringify({ name: tenant.name, origins, texts })
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return `${LOADER}(${json});\n`;
}
