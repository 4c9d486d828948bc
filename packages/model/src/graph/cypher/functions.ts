/**
 * Built-in Cypher functions explore may call, by lower-case name. Anything else is refused: a user-defined or plugin
 * function (e.g. one that runs Cypher itself) could escape the workspace scope.
 */
const NAMES = `abs acos asin atan atan2 avg ceil char_length character_length coalesce collect cos cot count degrees e
elementid endnode exp floor haversin head id isempty isnan keys labels last left length log log10 ltrim max min nodes
nullif percentilecont percentiledisc pi point properties radians rand range relationships replace reverse right round
rtrim sign sin size split sqrt startnode stdev stdevp substring sum tail tan timestamp toboolean tobooleanlist
tobooleanornull tofloat tofloatlist tofloatornull tointeger tointegerlist tointegerornull tolower tostring tostringlist
tostringornull toupper trim btrim lower upper normalize type valuetype date datetime time localtime localdatetime
duration date.truncate datetime.truncate time.truncate localtime.truncate localdatetime.truncate datetime.fromepoch
datetime.fromepochmillis duration.between duration.indays duration.inmonths duration.inseconds point.distance
point.withinbbox vector.similarity.cosine vector.similarity.euclidean`;

export const ALLOWED_FUNCTIONS = new Set(NAMES.split(/\s+/).filter(Boolean));
/** Aggregations take DISTINCT. */
export const AGGREGATIONS = new Set([
  "avg",
  "collect",
  "count",
  "max",
  "min",
  "percentilecont",
  "percentiledisc",
  "stdev",
  "stdevp",
  "sum",
]);
