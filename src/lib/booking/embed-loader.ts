/**
 * The partner-page loader served at `/embed/booking.js`: plain ES5-ish JS, written small by hand
 * (budget 2 KB). For each `<script src=".../embed/booking.js" data-property=…>` it inserts an
 * iframe of `/embed/booking` next to the tag, passing the `data-*` values (checked again by zod on
 * the embed page) and its own origin; it resizes the iframe from the widget's `postMessage`
 * (origin and source checked, height capped) and re-dispatches `masthead:booking-confirmed`
 * as a DOM event on the iframe. Without messages the iframe keeps a fixed height and scrolls.
 */
export const EMBED_LOADER = `(function(){
var d=document,w=window,keys=['property','check-in','check-out','adults','children','locale','currency'];
var list=d.querySelectorAll('script[src*="/embed/booking.js"]');
for(var i=0;i<list.length;i++)setup(list[i]);
function setup(s){
if(s.getAttribute('data-masthead-ready'))return;
s.setAttribute('data-masthead-ready','1');
var src=new URL(s.src,location.href),url=new URL('booking',src),q=url.searchParams;
for(var k=0;k<keys.length;k++){
var v=s.getAttribute('data-'+keys[k]);
if(v)q.set(keys[k].replace(/-(\\w)/,function(_,c){return c.toUpperCase()}),v);
}
q.set('origin',location.origin);
var f=d.createElement('iframe');
f.src=url.href;
f.title=s.getAttribute('data-title')||'Book a stay';
f.style.cssText='display:block;width:100%;border:0;height:720px';
s.parentNode.insertBefore(f,s.nextSibling);
w.addEventListener('message',function(e){
var m=e.data;
if(e.origin!==src.origin||e.source!==f.contentWindow||!m||typeof m!=='object')return;
if(m.type==='masthead:resize'){
var h=Number(m.height);
if(h>0)f.style.height=Math.min(Math.max(Math.ceil(h),240),4000)+'px';
}else if(m.type==='masthead:booking-confirmed'){
f.dispatchEvent(new CustomEvent('masthead:booking-confirmed',{bubbles:true,detail:m.booking}));
}
});
}
})();
`;
