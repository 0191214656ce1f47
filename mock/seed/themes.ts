/** Word banks per tenant: enough variety for realistic-looking, deterministic fixtures. */
export type CategoryTheme = { slug: string; name: string; headlines: string[] };

export type Theme = {
  slug: string;
  name: string;
  color: string;
  accent: string;
  currency: string;
  places: string[];
  people: string[];
  writers: string[];
  categories: CategoryTheme[];
  tags: string[];
  draftOnlyTags: string[];
  sentences: string[];
  subheads: string[];
  quotes: string[];
  welcome: { title: string; excerpt: string; lead: string };
  edition: string;
  streams: string[];
  comments: string[];
  replies: string[];
  commenters: string[];
};

export const THEMES: Theme[] = [
  {
    slug: 'daily-planet',
    name: 'Daily Planet',
    color: '#1d3557',
    accent: '#e63946',
    currency: 'USD',
    places: ['Midtown', 'the Riverside district', 'Old Harbor Road', 'Union Square', 'Eastgate', 'the Northside', 'Fifth Avenue', 'Centennial Park'],
    people: ['Mayor Ellen Park', 'Councillor Ray Okafor', 'Police Chief Dana Whitlock', 'Transit director Omar Haddad', 'Schools chief Linda Moreau'],
    writers: ['Lois Calder', 'Jimmy Ortega', 'Perry Whitfield', 'Cat Nguyen'],
    categories: [
      { slug: 'news', name: 'News', headlines: ['City council approves new bike lanes in {place}', '{person} unveils plan to cut commute times', 'Water main break floods streets in {place}', 'Night bus service returns to {place}', 'Residents of {place} push back on parking fees', 'Hospital expansion in {place} clears final hurdle'] },
      { slug: 'sport', name: 'Sport', headlines: ['Metropolis Meteors edge rivals in overtime thriller', 'City marathon draws record {n} runners', 'High school champions celebrate in {place}', 'Meteors sign veteran goalkeeper for two seasons', 'Stadium renovation behind schedule, club admits'] },
      { slug: 'business', name: 'Business', headlines: ['Startups flock to new co-working hub in {place}', 'Downtown retailers report strongest quarter in years', 'Port authority signs {n}-million deal for cargo terminal', 'Tech firm to hire {n} engineers at {place} campus', 'Small bakeries feel the squeeze of rising rents'] },
      { slug: 'culture', name: 'Culture', headlines: ['Metropolis Museum opens long-awaited modern wing', 'Jazz festival returns to {place} this weekend', 'Review: a bold new staging of Hamlet at the Lyric', 'Street artists transform underpass in {place}', 'Library celebrates {n} years with free concerts'] },
      { slug: 'city', name: 'City Life', headlines: ['Where to find the best late-night food in {place}', 'Community garden in {place} feeds {n} families', 'Five walks that show another side of the city', 'Neighbours rally to save corner cinema in {place}'] },
      { slug: 'opinion', name: 'Opinion', headlines: ['Our view: the city needs a real housing plan', 'Letters: readers weigh in on the transit fare hike', 'Why {place} deserves a public pool', 'Column: the quiet heroes of the night shift'] },
      { slug: 'technology', name: 'Technology', headlines: ['City pilots self-driving shuttles in {place}', 'Free public Wi-Fi reaches {n} bus stops', 'Hackathon teams tackle traffic data', 'How the new 311 app handles your complaints'] },
    ],
    tags: ['City Hall', 'Transit', 'Housing', 'Elections', 'Meteors', 'Arts', 'Startups', 'Schools', 'Weather', 'Crime'],
    draftOnlyTags: ['Embargoed'],
    sentences: ['Officials said the change would take effect before the end of the month.', 'Residents of {place} have long complained about the state of the streets.', '{person} told reporters the decision was "overdue and necessary".', 'The proposal passed by a vote of {n} to four after a lengthy debate.', 'Critics argue the budget leaves little room for unexpected costs.', 'Local business owners welcomed the news but asked for clearer timelines.', 'A public hearing is scheduled at City Hall next Tuesday evening.', 'The project is expected to create around {n} jobs over three years.', 'Commuters reported delays of up to twenty minutes during the morning rush.', 'Police asked anyone with information to contact the tip line.', 'Volunteers spent the weekend handing out flyers in {place}.', 'The numbers, released on Monday, surprised even seasoned observers.', 'Not everyone is convinced the plan will work as promised.', 'A spokesperson declined to comment on the ongoing negotiations.'],
    subheads: ['What happens next', 'A long road to approval', 'Reaction from the neighbourhood', 'By the numbers', 'The view from City Hall'],
    quotes: ['We listened to the people who actually live here.', 'This city has never been afraid of a big idea.', 'It is about time somebody fixed this.'],
    welcome: { title: 'Welcome to our new website', excerpt: 'The Daily Planet has a new home on the web: faster, cleaner and built for reading on any device.', lead: 'After eighty years in print, the Daily Planet opens a new chapter online.' },
    edition: 'Daily Planet',
    streams: ['City Council Live: Budget Session', 'Meteors Post-Game Press Conference', 'Mayor’s Town Hall on Housing', 'Election Night Special', 'Marathon Finish Line Cam', 'Jazz Festival Opening Night', 'Morning Briefing', 'Inside the Newsroom', 'Transit Authority Q&A'],
    comments: ['Great reporting, thank you for covering this.', 'I live in Midtown and this is long overdue.', 'Who is going to pay for all of this?', 'The photos in this piece are stunning.', 'I disagree with the council on this one.', 'Finally some good news for commuters!', 'Does anyone know when the hearing starts?'],
    replies: ['Agreed, well said.', 'I had the same question.', 'The article says next Tuesday at 7 pm.', 'Not sure that is accurate, but thanks for sharing.'],
    commenters: ['Marco B.', 'Priya S.', 'Tom Keller', 'Aisha Rahman', 'J. Lindqvist', 'Grace O.'],
  },
  {
    slug: 'harbour-times',
    name: 'Harbour Times',
    color: '#0b6e79',
    accent: '#f4a261',
    currency: 'EUR',
    places: ['the Old Quay', 'Lighthouse Point', 'the fish market', 'Saltmarsh Bay', 'the marina', 'Ferry Street', 'North Pier', 'the dunes'],
    people: ['Harbour master Ines Duarte', 'Mayor Pieter Janssen', 'Lifeboat coxswain Rob Mallory', 'Fisheries officer Keira Walsh', 'Councillor Sofia Brandt'],
    writers: ['Maren Holt', 'Declan Shaw', 'Anouk de Vries', 'Tiago Ramos'],
    categories: [
      { slug: 'news', name: 'News', headlines: ['Storm surge warning issued for {place}', 'New ferry timetable cuts crossing to {n} minutes', 'Seawall repairs at {place} to start in spring', '{person} calls for more lifeguards this summer', 'Parking ban near {place} divides residents'] },
      { slug: 'sport', name: 'Sport', headlines: ['Regatta fleet battles gusts off {place}', 'Harbour Rowing Club wins coastal championship', 'Open-water swim raises money for lifeboat crew', 'Beach volleyball finals draw {n} spectators', 'Sailing school celebrates its {n}th season'] },
      { slug: 'maritime', name: 'Maritime', headlines: ['Tall ship Aurora returns to {place} after refit', 'Fishing fleet lands record catch of mackerel', 'Container traffic through the port up {n} percent', 'Lifeboat crew rescues {n} from drifting yacht', 'Historic lightship opens to visitors at {place}'] },
      { slug: 'business', name: 'Business', headlines: ['Fish market traders welcome new cold store', 'Boatyard at {place} takes on {n} apprentices', 'Seafront cafés report bumper summer', 'Offshore wind firm opens office on Ferry Street'] },
      { slug: 'tourism', name: 'Tourism', headlines: ['Cruise season brings {n} visitors to the quay', 'Ten things to do at {place} this weekend', 'Hotel occupancy hits record high in August', 'Coastal path upgrade links {place} and the dunes'] },
      { slug: 'environment', name: 'Environment', headlines: ['Seal pups spotted at {place} for first time in decades', 'Volunteers clear {n} kilos of plastic from the beach', 'Water quality at Saltmarsh Bay rated excellent', 'Eelgrass meadows return to the harbour'] },
      { slug: 'culture', name: 'Culture', headlines: ['Sea shanty festival fills the Old Quay', 'Maritime museum unveils shipwreck treasures', 'Painters capture the light at {place}', 'Harbour film night screens classic sea stories'] },
    ],
    tags: ['Ferries', 'Fishing', 'Lifeboat', 'Regatta', 'Tides', 'Beaches', 'Port', 'Wind Farm', 'Seafood', 'Harbour Council'],
    draftOnlyTags: ['Under Embargo'],
    sentences: ['The tide turned shortly after six, bringing the first boats back to {place}.', '{person} said crews had been on standby since dawn.', 'Fishermen at {place} say conditions have rarely been this rough.', 'The harbour council will discuss the plan at its next meeting.', 'Around {n} people gathered on the quay to watch.', 'Gulls wheeled over the market as traders set out the morning catch.', 'Visitors are advised to check the ferry timetable before travelling.', 'The coastguard confirmed no one was injured.', 'Local skippers have been campaigning for the change for years.', 'Funding comes partly from the regional development fund.', 'The works will close part of the promenade until further notice.', 'Residents described the scene as "something out of a postcard".', 'A spokesperson for the port authority welcomed the figures.'],
    subheads: ['Life on the quay', 'What the skippers say', 'Tides and timetables', 'A busy season ahead', 'The numbers'],
    quotes: ['The sea gives and the sea takes, we just keep watch.', 'You cannot run a harbour town without its harbour.', 'Every boat that comes home safe is a good day.'],
    welcome: { title: 'Welcome to our new website', excerpt: 'The Harbour Times now sails online: tide tables, ferry news and the stories of our coast, all in one place.', lead: 'From the Old Quay to Lighthouse Point, the Harbour Times has always followed the tide of local news.' },
    edition: 'Harbour Times',
    streams: ['Regatta Live from North Pier', 'Harbour Council Meeting', 'Lifeboat Launch Day', 'Sea Shanty Festival Main Stage', 'Storm Watch: Live Coastal Update', 'Fish Market Auction', 'Tall Ship Arrival', 'Sunset at Lighthouse Point', 'Ferry Strike Briefing'],
    comments: ['Lovely piece about our harbour.', 'The ferry changes are a nightmare for commuters.', 'Well done to the lifeboat crew, heroes all.', 'Is the coastal path open again yet?', 'My grandfather fished from that quay for forty years.', 'More bins on the beach please!', 'Beautiful photos of the tall ship.'],
    replies: ['Same here, brings back memories.', 'It reopened last Saturday.', 'Fully agree.', 'Contact the harbour office, they were helpful to me.'],
    commenters: ['Saltyseadog', 'Helen M.', 'Bram V.', 'Niamh C.', 'Oskar L.', 'Rita F.'],
  },
  {
    slug: 'alpine-post',
    name: 'Alpine Post',
    color: '#2d6a4f',
    accent: '#e9c46a',
    currency: 'CHF',
    places: ['Oberdorf', 'the Glacier Valley', 'Lake Sarnen', 'the Falken Pass', 'Bergheim', 'the upper pastures', 'Kirchplatz', 'the Edelweiss trail'],
    people: ['Mayor Ursula Brunner', 'Mountain guide Luca Zanetti', 'Avalanche forecaster Mia Steiner', 'Cheesemaker Anton Gisler', 'Councillor Fabienne Roth'],
    writers: ['Heidi Amstutz', 'Reto Baumann', 'Chiara Bernasconi', 'Jonas Imhof'],
    categories: [
      { slug: 'news', name: 'News', headlines: ['Falken Pass reopens after rockfall clean-up', 'New cable car to link {place} and the ridge', '{person} presents plan for affordable housing', 'Village school in {place} saved by parents', 'Postbus adds evening service to {place}'] },
      { slug: 'sport', name: 'Sport', headlines: ['Local skier takes podium in giant slalom', 'Mountain marathon climbs {n} metres in a day', 'Ice hockey club promoted after dramatic final', 'Schwingfest draws {n} fans to {place}', 'Cross-country trails open early this season'] },
      { slug: 'mountains', name: 'Mountains', headlines: ['Glacier lost {n} metres this summer, survey finds', 'Hut keepers prepare for record hiking season', 'Rescue team airlifts climbers from the north face', 'New via ferrata opens above {place}'] },
      { slug: 'weather', name: 'Weather', headlines: ['Avalanche risk raised to level three', 'Föhn winds bring spring warmth in January', 'First snow dusts {place} overnight', 'Hailstorm damages vineyards near Lake Sarnen'] },
      { slug: 'tourism', name: 'Tourism', headlines: ['Winter bookings up {n} percent on last year', 'Five huts worth the climb this autumn', 'Cheese trail through {place} wins tourism award', 'Ski resort invests in snowmaking'] },
      { slug: 'agriculture', name: 'Agriculture', headlines: ['Cows return from the upper pastures in festive parade', 'Alpine cheese wins gold at national fair', 'Farmers worry about dry summer on the high meadows', 'Young farmers take over family dairy in {place}'] },
      { slug: 'culture', name: 'Culture', headlines: ['Yodel choir celebrates {n} years', 'Alphorn festival echoes across {place}', 'Museum of mountain life reopens', 'Woodcarvers of {place} keep old craft alive'] },
    ],
    tags: ['Avalanche', 'Skiing', 'Hiking', 'Glaciers', 'Cheese', 'Cable Cars', 'Village Life', 'Snow', 'Alpine Huts', 'Mountain Rescue'],
    draftOnlyTags: ['Sperrfrist'],
    sentences: ['Fresh snow fell overnight above {place}, closing two trails.', '{person} urged hikers to check conditions before setting out.', 'The village assembly approved the credit by a clear majority.', 'Around {n} visitors made the trip up the valley on Sunday.', 'Farmers in {place} say the season started two weeks early.', 'The cable car company expects to finish the works by December.', 'Rescuers reached the group after a three-hour climb.', 'Local hotels report bookings well above last winter.', 'The pass road remains closed to heavy goods vehicles.', 'Glaciologists have measured the ice for more than a century.', 'Snow cannons ran through the night to prepare the slopes.', 'Residents of {place} gathered at the Kirchplatz for the announcement.', 'The cantonal office will publish its final report in spring.'],
    subheads: ['High up the valley', 'What the locals say', 'A changing mountain', 'Looking ahead to winter', 'Facts and figures'],
    quotes: ['The mountain decides, we only listen.', 'Our village lives from the snow and the cows.', 'Every summer the glacier is a little smaller.'],
    welcome: { title: 'Welcome to our new website', excerpt: 'The Alpine Post is now online: snow reports, village news and stories from the valleys, wherever you are.', lead: 'For generations the Alpine Post has carried news from valley to valley.' },
    edition: 'Alpine Post',
    streams: ['Alpabzug: Cattle Parade Live', 'Giant Slalom Finals', 'Avalanche Safety Briefing', 'Alphorn Festival Concert', 'Village Assembly Live', 'Glacier Cam: Summit View', 'Ski Jump Qualifiers', 'Mountain Rescue Training', 'New Year on the Kirchplatz'],
    comments: ['Wonderful story, greetings from the valley.', 'The pass should have been closed earlier.', 'We hiked there last week, highly recommended!', 'Our cheese is the best, no doubt.', 'Sad to read about the glacier.', 'Will the cable car run on Sundays?', 'Thank you for the avalanche warning.'],
    replies: ['Yes, from nine in the morning.', 'Absolutely agree.', 'Sadly true.', 'Greetings back from Bergheim!'],
    commenters: ['Beat K.', 'Sandra Z.', 'Peter von Arx', 'Lina G.', 'Marco R.', 'Vreni S.'],
  },
];
