/**
 * Every message of the tool contract and the CLI in Ukrainian: the same keys and placeholders as
 * the English catalogue. Values are quoted as JSON literals ("x"), exactly as in English, because
 * they are the exact values; the apostrophe is ’ throughout.
 *
 * @module
 */

import type { Catalogue } from "./en_us.ts";

/**
 * The Ukrainian catalogue. A function, so that its strings are made only when Ukrainian is used
 * (English runs never allocate them).
 *
 * @returns A new catalogue object.
 */
export function ukUA(): Catalogue {
  return {
    // Про кого повідомлення.
    "label.tool": "Інструмент {tool}",
    "label.command": "Команда",
    "label.command_on": "Команда на цілі {target}",
    "label.subagent": "Субагент",

    // Як завершився запуск.
    "run.timed_out": "{label}: час очікування вичерпано ({ms} мс)",
    "run.cancelled": "{label}: скасовано",
    "run.signal": "{label}: зупинено сигналом {signal}",
    "run.exit": "{label}: завершено з кодом {code}",
    "run.not_started": "{label}: не вдалося запустити: {reason}",
    "run.no_reason": "причину не вказано",
    "run.cut": "{text}… (обрізано; усього {size})",
    "run.printed_nothing": "{label}: завершено, нічого не виведено",
    "run.interrupted": "{label}: перервано",
    "run.interrupted_stopped": "{label}: перервано; групу процесів зупинено",
    "run.cut_note": "[вивід обрізано до {size} / {lines} рядків; усього {bytes} Б]",
    "run.cut_note_spilled":
      "[вивід обрізано до {size} / {lines} рядків; усього {bytes} Б; повний вивід: {path}]",

    // Чому програма не запустилася.
    "start.not_on_path": "програму {program} не знайдено в PATH",
    "start.missing": "програми {program} не існує",
    "start.directory": "програма {program} є каталогом",
    "start.not_executable": "програма {program} не є виконуваною (немає права на виконання)",
    "start.permission": "програму {program} не вдалося виконати: доступ заборонено",
    "start.blank": "назва програми порожня",
    "start.cwd_missing": "робочого каталогу {cwd} не існує",
    "start.cwd_not_dir": "шлях робочого каталогу {cwd} не є каталогом",
    "start.sandbox":
      "пісочниця Deno не дозволила запустити програму {program}; дозвольте її через {flag}",

    // Розміри.
    "size.byte": "1 Б",
    "size.bytes": "{count} Б",
    "size.kib": "{count} КіБ",
    "size.mib": "{count} МіБ",
    "size.gib": "{count} ГіБ",
    "size.tib": "{count} ТіБ",
    "size.decimal": ",",

    // Що було отримано.
    "found.null": "null",
    "found.array": "масив",
    "found.object": "об’єкт",
    "found.string": "рядок",
    "found.number": "число",
    "found.boolean": "логічне значення",
    "found.other": "значення типу {type}",

    // Відхилені вхідні дані.
    "input.refused": "Інструмент {tool} відхилив вхідні дані: {pointer}: {reason}",
    "input.must_be_object": "має бути об’єктом JSON, а отримано {found}",
    "schema.refused": "Вхідні дані не відповідають схемі інструмента {tool}: {pointer}: {reason}",
    "schema.root": "(корінь)",
    "schema.required": "відсутня обов’язкова властивість",
    "schema.required_when": "відсутня обов’язкова властивість (вона потрібна, коли є {property})",
    "schema.not_allowed": "властивість не дозволена",
    "schema.enum": "має бути одним зі значень: {values}",
    "schema.enum_more": "{values}, … (і ще {count})",
    "schema.const": "має дорівнювати {value}",
    "schema.type": "має бути типу {types}",
    "schema.or": "або",
    "schema.false": "не дозволено",
    "schema.property_name": "назва властивості {reason}",
    "schema.min_length": "довжина має бути не меншою за {limit}",
    "schema.max_length": "довжина має бути не більшою за {limit}",
    "schema.compare": "має бути {comparison} {limit}",
    "schema.min_items": "кількість елементів має бути не меншою за {limit}",
    "schema.max_items": "кількість елементів має бути не більшою за {limit}",
    "schema.min_properties": "кількість властивостей має бути не меншою за {limit}",
    "schema.max_properties": "кількість властивостей має бути не більшою за {limit}",
    "schema.pattern": 'має відповідати шаблону "{pattern}"',
    "schema.format": 'має відповідати формату "{format}"',
    "schema.multiple_of": "має бути кратним {value}",
    "schema.unique":
      "не повинно містити однакових елементів (елементи № {first} і {second} однакові)",
    "schema.one_of": "має відповідати рівно одній схемі з oneOf",
    "schema.any_of": "має відповідати хоча б одній схемі з anyOf",
    "schema.not": "не повинно відповідати схемі з not",
    "schema.if": 'має відповідати схемі "{clause}"',
    "schema.contains": "кількість відповідних елементів має бути не меншою за {min}",
    "schema.too_deep": "має надто глибоку вкладеність, щоб її перевірити",
    "schema.not_json": "не є даними JSON",
    "schema.invalid": "не є допустимим значенням",

    // Відмови.
    "denied.never": "Виклик інструмента {tool} відхилено: --approve never",
    "denied.prompt": "Виклик інструмента {tool} відхилено під час підтвердження",
    "denied.prompt_remembered":
      "Виклик інструмента {tool} відхилено під час підтвердження (запам’ятовано як {rule})",
    "denied.rule": "Виклик інструмента {tool} відхилено правилом {rule}",
    "denied.rule_reason": "Виклик інструмента {tool} відхилено правилом {rule}: {reason}",
    "denied.no_terminal":
      "Виклик інструмента {tool} відхилено: жодне збережене правило його не дозволяє, а термінала, щоб запитати, немає; дозвольте його командою `{command}` або через --approve always",
    "denied.generic": "Виклик інструмента {tool} відхилено",
    "denied.rules_file": "Не вдалося завантажити правила {file}: {problem}",
    "denied.rules_file_more_one":
      "Не вдалося завантажити правила {file}: {problem} (і ще одна проблема)",
    "denied.rules_file_more":
      "Не вдалося завантажити правила {file}: {problem} (і ще проблем: {count})",

    // Вхідні дані інструмента spawn.
    "spawn.input.must_be_object":
      'має бути об’єктом JSON із рядковою властивістю "input", а отримано {found}',
    "spawn.input.missing": 'відсутня обов’язкова рядкова властивість "input"',
    "spawn.input.not_string": "має бути рядком, а отримано {found}",
    "spawn.input.extra": 'неочікувана властивість; spawn приймає лише "input"',
    "spawn.input.empty":
      'порожнє значення: напишіть команду після "!" (наприклад, "!cargo test") або завдання, яке треба делегувати',
    "spawn.input.no_command": 'після "!" немає команди: напишіть її, наприклад "!cargo test"',
    "spawn.input.no_target":
      'після "!@" не вказано ціль: напишіть "!@<ціль> <команда>", наприклад "!@builder make"',
    "spawn.input.bad_target":
      'назва цілі {name} неприпустима: використовуйте лише літери, цифри, "_" і "-"',
    "spawn.input.local_target":
      '"!@local" не потрібен: звичайна "!<команда>" і так виконується тут',
    "spawn.input.target_no_command":
      'вказано ціль "{name}", але немає команди: напишіть "!@{name} <команда>"',

    // Відмови spawn до підтвердження.
    "spawn.guard.no_shell":
      'Виклик spawn відхилено: команди вимкнено (--no-shell); завдання без "!" на початку все ще можна делегувати',
    "spawn.guard.unknown_target_none":
      'Виклик spawn відхилено: невідома ціль {target}; жодної цілі не налаштовано (додайте "targets" до {file})',
    "spawn.guard.unknown_target":
      "Виклик spawn відхилено: невідома ціль {target}; налаштовані цілі: {names}",
    "spawn.guard.depth_unknown":
      "Виклик spawn відхилено: {variable} не є цілим числом, тож глибина делегування невідома; команди все ще працюють",
    "spawn.guard.depth_limit":
      'Виклик spawn відхилено: цей виклик на глибині делегування {depth}, а межа — {max}, тож делегувати далі не можна; команди ("!<команда>") все ще працюють',
    "spawn.guard.no_agent":
      'Виклик spawn відхилено: субагента не налаштовано; додайте до {file} argv, наприклад "agent": ["claude", "-p"] (він отримує завдання через stdin і відповідає через stdout)',

    // Результати spawn.
    "spawn.agent_silent": "Субагент завершив роботу, нічого не сказавши",
    "spawn.agent_failed": "Субагент завершився з помилкою",
    "spawn.exit_status": "{label}: завершено зі статусом {code}",
    "spawn.cut_note": "[вивід обрізано до {size}; усього {bytes} Б]",

    // Як spawn описує себе.
    "spawn.display_name": "Виконати або делегувати",
    "spawn.description":
      'Виконує команду оболонки або делегує завдання. "!<команда>" виконує команду через /bin/sh у корені робочого простору (наприклад, "!cargo test"); будь-який інший текст передається субагентові як завдання. Почніть із "!!", якщо саме завдання починається з "!".',
    "spawn.description_targets":
      '"!@<ціль> <команда>" виконує команду на налаштованій цілі: {names}.',
    "spawn.system_prompt":
      'spawn: виконайте команду оболонки через {"input": "!<команда>"} або делегуйте завдання субагентові через {"input": "<завдання>"} ("!!" починає завдання, яке саме починається з "!"). Команди виконуються через /bin/sh у корені робочого простору; кожен виклик спершу підтверджується.',
    "spawn.system_prompt_targets":
      'Щоб виконати команду на цілі, пишіть "!@<ціль> <команда>": {names}.',
    "spawn.help":
      '# {title} (`spawn`)\n\nВиконує команду оболонки або передає завдання субагентові. Вхідні дані — один рядок, `input`:\n\n- `!<команда>` виконує команду через `/bin/sh -c` у корені робочого простору, в окремій групі процесів; у її середовищі лишаються тільки `PATH`, `HOME`, `LANG` і налаштовані змінні. Наприклад: `{"input": "!cargo test"}`.\n{targets}- `!!<текст>` — завдання, яке саме починається з `!`.\n- Будь-який інший текст — завдання для налаштованого субагента: він отримує текст через стандартний вхід і відповідає через стандартний вихід.\n\nРезультат — вивід команди (стандартний вихід, а якщо він порожній — стандартний потік помилок) або відповідь субагента. Команду буде зупинено через {command_ms} мс, субагента — через {agent_ms} мс; з кожного потоку зберігається до 64 КіБ. Кожен виклик підтверджується до запуску.',
    "spawn.help_targets": "- `!@<ціль> <команда>` виконує команду на налаштованій цілі: {names}.\n",

    // Як оголошений інструмент описує себе.
    "tool.system_prompt":
      "{name}: {description} Вхід: один об’єкт JSON, що відповідає схемі вхідних даних. Вихід: те, що друкує програма. Побічна дія: {effect}.",
    "tool.help":
      "# {title} (`{name}`)\n\n{description}\n\n- Побічна дія: {effect}\n- Обмеження часу: {ms} мс\n\n## Вхідні дані\n\nОдин об’єкт JSON, що відповідає цій схемі; програма отримує його через стандартний вхід:\n\n{schema}\n\n## Результат\n\nТе, що програма друкує в стандартний вихід. Відхилені вхідні дані, відмова, збій або вичерпаний час очікування повертаються як помилка з поясненням.",
    "effect.process": "запускає програму на цьому комп’ютері",
    "effect.external": "діє на системи за межами цього комп’ютера",

    // Власні повідомлення CLI.
    "cli.unknown_command": "Невідома команда {command}: див. basis-tools --help",
    "cli.missing_argument": "Не вдалося виконати {command}: бракує аргументу; див. --help",
    "cli.unexpected_argument":
      "Не вдалося виконати {command}: неочікуваний аргумент {argument}; див. --help",
    "cli.bad_milliseconds":
      "Не вдалося використати --{option} {value}: очікується ціле число мілісекунд, більше за 0",
    "cli.bad_format": "Не вдалося використати --format {value}: очікується одне з: {formats}",
    "cli.unknown_tool_near":
      "Не вдалося знайти інструмент {tool}; можливо, ви мали на увазі {names}?",
    "cli.unknown_tool_none":
      "Не вдалося знайти інструмент {tool}; жодного інструмента не оголошено (див. basis-tools check)",
    "cli.unknown_tool_list": "Не вдалося знайти інструмент {tool}; див. basis-tools list",
    "cli.invalid_json": "Не вдалося розібрати вхідні дані інструмента {tool} як JSON: {detail}",
    "cli.not_a_directory": "Не вдалося використати робочий простір {path}: це не каталог",
    "cli.unknown_option": "Невідомий параметр {option}: див. --help",
    "cli.option_missing_value": "Не вдалося розібрати параметр {option}: бракує значення",
    "cli.option_no_value": "Не вдалося розібрати параметр {option}: він не приймає значення",
    "cli.bad_policy":
      "Не вдалося використати політику підтвердження {value}: очікується одна з: {policies}",
    "cli.bad_env_pair":
      "Не вдалося розібрати пару --env № {index}: очікується KEY=VALUE, де KEY складається з літер, цифр і _",
  };
}
