// The API tool templates that ship with the server, checked once when first asked for (the first
// listing or use of a template; a test checks them all). Add a template by adding a JSON file and a
// line here.
import frankfurterRates from './frankfurter-rates.json' with { type: 'json' };
import githubRepository from './github-repository.json' with { type: 'json' };
import hackerNewsItem from './hacker-news-item.json' with { type: 'json' };
import nagerPublicHolidays from './nager-public-holidays.json' with { type: 'json' };
import openLibrarySearch from './open-library-search.json' with { type: 'json' };
import openMeteoForecast from './open-meteo-forecast.json' with { type: 'json' };
import openWeatherMapCurrent from './openweathermap-current.json' with { type: 'json' };
import restCountries from './rest-countries.json' with { type: 'json' };
import wikipediaSummary from './wikipedia-summary.json' with { type: 'json' };
import { checkTemplates, type ToolTemplate } from './template.js';

const FILES: unknown[] = [
  frankfurterRates,
  githubRepository,
  hackerNewsItem,
  nagerPublicHolidays,
  openLibrarySearch,
  openMeteoForecast,
  openWeatherMapCurrent,
  restCountries,
  wikipediaSummary,
];

let checked: ToolTemplate[] | undefined;

/** Every template, by title. Throws on the first call when one is invalid. */
export function toolTemplates(): ToolTemplate[] {
  checked ??= checkTemplates(FILES).sort((a, b) => a.title.localeCompare(b.title));
  return checked;
}

export function findToolTemplate(id: string): ToolTemplate | undefined {
  return toolTemplates().find((template) => template.id === id);
}
