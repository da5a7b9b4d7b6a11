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
    "run.signal": "{label}: завершено сигналом {signal}",
    "run.exit": "{label}: завершено з кодом {code}",
    "run.not_started": "{label}: не вдалося запустити: {reason}",
    "run.no_reason": "причину не вказано",
    "run.cut": "{text}… (обрізано; усього {size})",
    "run.printed_nothing": "{label}: завершено, нічого не виведено",
    "run.printed_nothing_code": "{label}: завершено з кодом {code}, нічого не виведено",
    "run.interrupted": "{label}: перервано",
    "run.interrupted_stopped": "{label}: перервано; групу процесів зупинено",
    "run.cut_note": "[вивід обрізано до {size} / {lines} рядків; усього {bytes} Б]",
    "run.cut_note_spilled":
      "[вивід обрізано до {size} / {lines} рядків; усього {bytes} Б; повний вивід: {path}]",
    "run.cut_note_spill_cut":
      "[вивід обрізано до {size} / {lines} рядків; усього {bytes} Б; перші {spilled}: {path}]",

    // Чому програма не запустилася.
    "start.not_on_path": "програму {program} не знайдено в PATH",
    "start.not_on_path_unreadable":
      "програму {program} не знайдено в PATH (у деякі з його каталогів не вдалося зазирнути: {dirs})",
    "start.lookup_refused":
      "пісочниця Deno не дозволила шукати програму {program} у PATH ({dirs}); дозвольте читання через --allow-read або вкажіть абсолютний шлях до програми",
    "start.missing": "програми {program} не існує",
    "start.directory": "програма {program} є каталогом",
    "start.not_executable": "програма {program} не є виконуваною (немає права на виконання)",
    "start.permission": "програму {program} не вдалося виконати: доступ заборонено",
    "start.blank": "назва програми порожня",
    "start.cwd_missing": "робочого каталогу {cwd} не існує",
    "start.cwd_not_dir": "шлях робочого каталогу {cwd} не є каталогом",
    "start.sandbox":
      "пісочниця Deno не дозволила запустити програму {program}; дозвольте її через {flag}",
    "start.sandbox_flag": "--allow-run=<абсолютний шлях до {program}>",
    "start.loader_env":
      "пісочниця Deno не дозволила запустити програму {program}, бо в середовищі є {variables}: з обмеженим --allow-run Deno не запускає жодної програми, поки задано змінні LD_* або DYLD_*; приберіть {variables} або надайте --allow-run без обмежень",
    "start.loader_variables": "змінні LD_*/DYLD_*",
    "start.batch":
      "програма {program} — пакетний файл, який запускається лише через оболонку; basis-tools ніколи не використовує оболонку, тож укажіть інструментові файл .exe",
    "start.failed": "програму {program} не вдалося запустити: {detail}",
    "start.sandbox_failed": "пісочниця (bubblewrap) не змогла її запустити: {detail}",

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
    "found.nothing": "нічого",

    // Відхилені вхідні дані.
    "input.refused": "Інструмент {tool} відхилив вхідні дані: {pointer}: {reason}",
    "input.must_be_object": "має бути об’єктом JSON, а отримано {found}",
    "input.argument_dash":
      'не може починатися з "-": як аргумент {index} команди програма могла б сприйняти його як параметр',
    "input.argument_nul":
      "не може містити символ NUL: аргумент {index} команди не може його містити",
    "input.argument_missing": "обов’язкове: це аргумент {index} команди",
    "input.argument_type": "має бути {type}: це аргумент {index} команди",
    "schema.refused": "Вхідні дані не відповідають схемі інструмента {tool}: {pointer}: {reason}",
    "schema.output_refused":
      "Вивід інструмента {tool} не відповідає його схемі результату: {pointer}: {reason}",
    "output.not_json":
      "Вивід інструмента {tool} — не JSON, а його схема результату цього вимагає: {detail}",
    "output.must_be_object": "має бути об’єктом JSON, а отримано {found}",
    "output.too_large":
      "{label} вивів {bytes} Б — більше, ніж {size}, які можуть містити структурований результат або блоки вмісту",
    "output.too_large_spilled":
      "{label} вивів {bytes} Б — більше, ніж {size}, які можуть містити структурований результат або блоки вмісту; повний вивід: {path}",
    "output.content_not_json":
      'Вивід інструмента {tool} — не JSON, а "output": "content" цього вимагає: {detail}',
    "output.content_refused":
      "Вивід інструмента {tool} — не коректний вміст MCP: {pointer}: {reason}",
    "output.content_secret": "містить один із секретів інструмента (у декодованих байтах)",
    "content.image": "[зображення {media}, {size}]",
    "content.audio": "[аудіо {media}, {size}]",
    "content.resource": "[ресурс {uri}, {size}]",
    "content.resource_typed": "[ресурс {uri} {media}, {size}]",
    "content.link": "[посилання {uri}]",
    "schema.root": "(корінь)",
    "schema.required": "відсутня обов’язкова властивість",
    "schema.required_when": "відсутня обов’язкова властивість (вона потрібна, коли є {property})",
    "schema.not_allowed": "властивість не дозволена",
    "schema.enum": "має бути одним зі значень: {values}",
    "schema.enum_more": "{values}, … (і ще {count})",
    "schema.const": "має дорівнювати {value}",
    "schema.type": "має бути типу {types}",
    "schema.false": "не дозволено",
    "schema.property_name": "назва властивості: {reason}",
    "schema.min_length": "кількість символів має бути не меншою за {limit}",
    "schema.max_length": "кількість символів має бути не більшою за {limit}",
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
    "schema.contains_between": "кількість відповідних елементів має бути від {min} до {max}",
    "schema.too_deep": "має вкладеність, глибшу за {limit} рівнів",
    "schema.not_finite": "не є скінченним числом (завелике для 64-бітного числа з рухомою комою)",
    "schema.underflow":
      "замале для 64-бітного числа з рухомою комою: його оцінили б як 0, а програма отримала б його таким, як написано",
    "schema.not_json": "не є даними JSON",
    "schema.invalid": "не є допустимим значенням",

    // Відмови.
    "denied.never": "Виклик інструмента {tool} відхилено через --approve never",
    "denied.never_ask_rule":
      "Виклик інструмента {tool} відхилено через --approve never (правило {rule} вимагає запитувати)",
    "denied.prompt": "Виклик інструмента {tool} відхилено у відповідь на запит підтвердження",
    "denied.prompt_remembered":
      "Виклик інструмента {tool} відхилено у відповідь на запит підтвердження (запам’ятовано як {rule})",
    "denied.rule": "Виклик інструмента {tool} відхилено правилом {rule}",
    "denied.rule_reason": "Виклик інструмента {tool} відхилено правилом {rule}: {reason}",
    "denied.no_terminal":
      "Виклик інструмента {tool} відхилено: жодне збережене правило його не дозволяє, а термінала, щоб запитати, немає; дозвольте його командою `{command}` або через --approve always",
    "denied.no_terminal_changed":
      "Виклик інструмента {tool} відхилено: правило {rule} дозволяло його, доки не змінилося {files}, а термінала, щоб запитати, немає; дозвольте його знову командою `{command}` або через --approve always",
    "denied.generic": "Виклик інструмента {tool} відхилено",
    "denied.sandbox": "Виклик інструмента {tool} відхилено: {reason}",
    "denied.ask_no_terminal":
      "Виклик інструмента {tool} відхилено: правило {rule} вимагає щоразу запитувати, а термінала, щоб запитати, немає",
    "denied.rules_file": "Не вдалося завантажити правила {file}: {problem}",
    "denied.rules_file_more":
      "Не вдалося завантажити правила {file}: {problem} (і ще {count} {problems})",

    // Вхідні дані інструмента spawn.
    "spawn.input.must_be_object":
      'має бути об’єктом JSON із рядковою властивістю "input", а отримано {found}',
    "spawn.input.missing": 'відсутня обов’язкова рядкова властивість "input"',
    "spawn.input.not_string": "має бути рядком, а отримано {found}",
    "spawn.input.extra": 'неочікувана властивість; spawn приймає лише "input" і "reach"',
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
    "spawn.input.bad_reach":
      'має бути "local", "named" або "any" (або бути відсутнім), а отримано {found}',
    "spawn.input.local_agent":
      '"@local" не потрібен: завдання без "@<назва>" і так отримує налаштований субагент (почніть із "@@", якщо завдання саме починається з "@")',
    "spawn.input.agent_no_task":
      'вказано агента "{name}", але немає завдання: напишіть "@{name} <завдання>" (почніть із "@@", якщо завдання — це лише "@{name}")',

    // Відмови spawn до підтвердження.
    "spawn.guard.reach_not_allowed":
      'Виклик spawn відхилено: /reach {reach} не дозволено політикою досяжності користувача; вкажіть {allowed} або не вказуйте "reach", щоб отримати {default}',
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
    "spawn.guard.unknown_agent_none":
      'Виклик spawn відхилено: невідомий агент {agent}; жодного агента не налаштовано (додайте "agents" до {file}); якщо завдання саме починається з "@{name}", почніть його з "@@"',
    "spawn.guard.unknown_agent":
      'Виклик spawn відхилено: невідомий агент {agent}; налаштовані агенти: {names} (якщо завдання саме починається з "@{name}", почніть його з "@@")',
    "spawn.guard.reach_needs_name":
      'Виклик spawn відхилено: досяжність {reach} дозволяє передати завдання лише названому агентові, а тут агента не вказано: напишіть "@<назва> <завдання>"',
    "spawn.guard.reach_local_only":
      'Виклик spawn відхилено: досяжність {reach} лишає завдання налаштованому субагентові, а це завдання для агента {agent}: приберіть "@{name}" або вкажіть досяжність, що охоплює названих агентів ("named" або "any")',
    "spawn.guard.no_agent_named":
      'Виклик spawn відхилено: для завдання без "@<назва>" субагента не налаштовано; зверніться до названого агента ({names}) або додайте "agent" до {file}',

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
    "spawn.description_agents":
      '"@<агент> <завдання>" передає завдання названому агентові: {names} (почніть із "@@", якщо саме завдання починається з "@").',
    "spawn.system_prompt":
      'spawn: виконайте команду оболонки через {"input": "!<команда>"} або делегуйте завдання субагентові через {"input": "<завдання>"} ("!!" починає завдання, яке саме починається з "!"). Команди виконуються через /bin/sh у корені робочого простору; кожен виклик спершу підтверджується.',
    "spawn.system_prompt_targets":
      'Щоб виконати команду на цілі, пишіть "!@<ціль> <команда>": {names}.',
    "spawn.system_prompt_agents":
      'Щоб делегувати завдання названому агентові, пишіть "@<агент> <завдання>": {names}.',
    "spawn.help":
      '# {title} (`spawn`)\n\nВиконує команду оболонки або передає завдання субагентові. Вхідні дані — один рядок, `input`:\n\n- `!<команда>` виконує команду через `/bin/sh -c` у корені робочого простору, в окремій групі процесів; у її середовищі лишаються тільки `PATH`, `HOME`, `LANG` і налаштовані змінні. Наприклад: `{"input": "!cargo test"}`.\n{targets}{agents}- `!!<текст>` — завдання, яке саме починається з `!`.\n- Будь-який інший текст — завдання для налаштованого субагента: він отримує текст через стандартний вхід і відповідає через стандартний вихід.\n\nРезультат — вивід команди (стандартний вихід, а якщо він порожній — стандартний потік помилок) або відповідь субагента. Команду буде зупинено через {command_ms} мс, субагента — через {agent_ms} мс; з кожного потоку зберігається до 64 КіБ. Кожен виклик підтверджується до запуску.',
    "spawn.help_targets": "- `!@<ціль> <команда>` виконує команду на налаштованій цілі: {names}.\n",
    "spawn.help_agents":
      '- `@<агент> <завдання>` передає завдання названому агентові: {names}; `@@<текст>` — завдання для субагента, яке саме починається з `@`. Необов’язкове поле `reach` обмежує, до яких агентів може йти завдання: `"local"` — лише субагент, `"named"` — лише названий агент, `"any"` — будь-який ({default}, якщо поле не вказано).\n',
    "spawn.schema.input_targets":
      '"!<команда>" виконує команду оболонки; "!@<ціль> <команда>" виконує її на налаштованій цілі ({names}); будь-який інший текст — завдання для субагента',
    "spawn.schema.input_agents":
      '{input}; "@<агент> <завдання>" передає завдання названому агентові ({names})',
    "spawn.schema.reach":
      'До яких агентів може йти завдання: "local" — лише субагент, "named" — лише "@<агент>", "any" — будь-який; {default}, якщо поле не вказано',

    // Як оголошений інструмент описує себе.
    "tool.system_prompt":
      "{name}: {description} Вхід: один об’єкт JSON, що відповідає схемі вхідних даних. Вихід: те, що друкує програма. Побічна дія: {effect}.",
    "tool.help":
      "# {title} (`{name}`)\n\n{description}\n\n- Побічна дія: {effect}\n- Обмеження часу: {ms} мс\n\n## Вхідні дані\n\nОдин об’єкт JSON, що відповідає цій схемі; програма отримує його через стандартний вхід:\n\n{schema}\n\n## Результат\n\nТе, що програма друкує в стандартний вихід. Відхилені вхідні дані, відмова, збій або вичерпаний час очікування повертаються як помилка з поясненням.",
    "effect.process": "запускає програму на цьому комп’ютері",
    "effect.external": "діє на системи за межами цього комп’ютера",

    // Власні повідомлення CLI.
    "cli.unknown_command": "Невідома команда {command}: див. basis-tools --help",
    "cli.unknown_command_near":
      "Невідома команда {command}: можливо, ви мали на увазі {names}? Див. basis-tools --help",
    "cli.unknown_option_near":
      "Невідомий параметр {option}: можливо, ви мали на увазі {names}? Див. --help",
    "cli.option_of_other":
      "Не можна використати параметр {option} з {command}: це параметр {commands}; див. basis-tools help {name}",
    "cli.missing_argument": "Не вдалося виконати {command}: бракує аргументу; див. --help",
    "cli.unexpected_argument":
      "Не вдалося виконати {command}: неочікуваний аргумент {argument}; див. --help",
    "cli.split_call":
      `Не вдалося виконати "call": його INPUT розбито на {count} {arguments} (оболонка розбиває текст без лапок на пробілах); візьміть JSON в одинарні лапки, як-от basis-tools call NAME '{"text": "hi there"}'`,
    "cli.split_spawn":
      `Не вдалося виконати "spawn": його STRING розбито на {count} {arguments} (оболонка розбиває текст без лапок на пробілах); візьміть його в одинарні лапки, як-от basis-tools spawn '!cargo test'`,
    "cli.bad_milliseconds":
      "Не вдалося використати --{option} {value}: очікується ціле число мілісекунд, більше за 0",
    "cli.bad_format": "Не вдалося використати --format {value}: очікується одне з: {formats}",
    "cli.not_in_roster":
      "Інструмента {tool} немає в наборі інструментів цього запуску ({variable} містить {names})",
    "cli.not_in_roster_empty":
      "Інструмента {tool} немає в наборі інструментів цього запуску ({variable} порожня: жодного інструмента)",
    "cli.bad_roster":
      '{variable} містить {name}, що не є назвою інструмента (напишіть назви через ",")',
    "cli.unknown_tool_near":
      "Не вдалося знайти інструмент {tool}; можливо, ви мали на увазі {names}?",
    "cli.unknown_tool_none":
      "Не вдалося знайти інструмент {tool}; {files} не оголошує жодного інструмента",
    "cli.unknown_tool_no_manifest":
      "Не вдалося знайти інструмент {tool}: маніфест не знайдено (шукали в {paths}); {hint}",
    "hint.no_workspace": "basis-tools init створює робочий простір тут; -C DIR вказує на інший",
    "cli.unknown_tool_list": "Не вдалося знайти інструмент {tool}; див. basis-tools list",
    "cli.invalid_json": "Не вдалося розібрати вхідні дані інструмента {tool} як JSON: {detail}",
    "cli.input_too_large":
      "Не вдалося прочитати вхідні дані інструмента {tool}: stdin містить більше ніж {size}",
    "cli.input_not_utf8":
      "Не вдалося прочитати вхідні дані інструмента {tool}: stdin не є коректним UTF-8 (хибний байт на позиції {offset})",
    "cli.bad_workspace": "Не вдалося використати робочий простір {path}: {reason}",
    "workspace.not_directory": "це не каталог",
    "workspace.missing": "його не існує",
    "workspace.refused": "дозволи Deno не дозволяють його читати (він поза --allow-read)",
    "cli.unknown_option": "Невідомий параметр {option}: див. --help",
    "cli.option_missing_value": "Не вдалося розібрати параметр {option}: бракує значення",
    "cli.option_no_value": "Не вдалося розібрати параметр {option}: він не приймає значення",
    "cli.bad_policy":
      "Не вдалося використати політику підтвердження {value}: очікується одна з: {policies}",
    "cli.bad_switch":
      "Не вдалося використати {name}={value}: очікується {on} (так) або {off} (ні), у будь-якому регістрі",
    "cli.bad_env_pair":
      "Не вдалося розібрати пару --env № {index}: очікується KEY=VALUE, де KEY складається з літер, цифр і _",
    "cli.rules_no_arguments":
      "Не вдалося виконати {command}: ця команда не приймає аргументів; див. --help",
    "cli.rules_one_argument":
      "Не вдалося виконати {command}: потрібен рівно один аргумент; див. --help",
    "cli.rules_subcommand":
      "Не вдалося виконати {command}: очікується list, add, test, remove або check",
    "cli.rules_subcommand_near":
      "Не вдалося виконати {command}: можливо, ви мали на увазі {names}? Очікується list, add, test, remove або check",
    "cli.completion_shell":
      "Не вдалося вивести сценарій доповнення для {shell}: очікується одна з оболонок: {shells}",
    "cli.rules_tool_required": 'Не вдалося виконати "rules add": потрібен параметр --tool NAME',
    "cli.rules_bad_json":
      "Не вдалося додати правило для інструмента {tool}: {option} не є JSON: {detail}",
    "cli.rules_bad_input_condition":
      'Не вдалося додати правило для інструмента {tool}: --input приймає POINTER=JSON, наприклад /branch="main"',
    "cli.rules_deny_and_ask":
      "Не вдалося додати правило для інструмента {tool}: задайте щонайбільше один із параметрів --deny і --ask",
    "cli.rules_test_arguments":
      "Не вдалося виконати {command}: потрібні назва інструмента й необов’язковий INPUT; див. --help",
    "cli.bad_permissions_format":
      "Не вдалося використати формат {value}: очікується один із: {formats}",

    // Слова з числом: форми через "|" (одна|кілька|багато), їх обирає plural().
    "count.tools": "інструмент|інструменти|інструментів",
    "count.rules": "правило|правила|правил",
    "count.lines": "рядок|рядки|рядків",
    "count.problems": "проблема|проблеми|проблем",
    "count.warnings": "попередження|попередження|попереджень",

    // Переліки: "a", "a або b", "a, b або c".
    "join.one": "{item}",
    "join.comma": "{first}, {second}",
    "join.or": "{first} або {second}",
    "join.and": "{first} і {second}",
    "count.bytes": "байт|байти|байтів",
    "count.arguments": "аргумент|аргументи|аргументів",

    // list
    "list.heading_name": "НАЗВА",
    "list.heading_effect": "ПОБІЧНА ДІЯ",
    "list.heading_source": "ДЖЕРЕЛО",
    "list.heading_description": "ОПИС",
    "list.no_tools": "(жодного інструмента не оголошено; шукали в {paths})",
    "list.no_manifest": "(маніфест не знайдено; шукали в {paths}; {hint})",
    "list.unavailable": "недоступний: {reason}",
    "list.unavailable_more": "недоступний: {reason} (і ще {count}: див. basis-tools check)",
    "cli.left_out": "Інструмент {tool} пропущено: ним не можна скористатися: {why}",

    // show
    "show.command": "команда",
    "show.title": "заголовок",
    "show.cwd": "каталог",
    "show.env": "змінні",
    "show.side_effect": "побічна дія",
    "show.timeout": "обмеження часу",
    "show.success": "коди успішного завершення",
    "show.output": "вивід",
    "show.output_content": "блоки вмісту MCP (масив JSON)",
    "show.sandbox": "пісочниця",
    "show.sandbox_default": "нічого понад типову пісочницю",
    "show.files": "файли",
    "show.sandbox_grants": "дозволено {grants}",
    "show.declared_in": "оголошено в",
    "show.input_schema": "схема вхідних даних",
    "show.output_schema": "схема результату",
    "show.none": "(немає)",
    "show.ms": "{ms} мс",

    // show spawn
    "show.source": "джерело",
    "show.spawn_effect": "{effects} (команда — {command}, субагент — {agent})",
    "show.commands": "команди",
    "show.commands_off": "вимкнено (--no-shell)",
    "show.commands_on": "{shell} -c <команда>",
    "show.commands_env": "{commands}; у середовищі лишаються тільки {env} і пари --env",
    "show.targets": "цілі",
    "show.target_line": "{name}: {prefix} <команда>",
    "show.agent": "субагент",
    "show.none_configured": "(не налаштовано)",
    "show.depth": "глибина",
    "show.depth_value": "{depth} (субагентів відхиляють на глибині {max})",
    "show.depth_unknown": "невідома",
    "show.spawn_timeout": "{command} мс для команди, {agent} мс для субагента",
    "show.configured_in": "налаштовано в",
    "show.agents": "агенти",
    "show.reach": "досяжність",
    "show.reach_value": "дозволено {allowed}; {default}, якщо виклик його не вказує",
    "show.child": "дочірній",
    "show.child_inherits": "успадковує набір інструментів, модель і системну підказку",
    "show.child_roster": "інструменти {names}",
    "show.child_no_tools": "жодного інструмента",
    "show.child_model": "модель {model}",
    "show.child_system_prompt": "системну підказку замінено на {text}",

    // check
    "check.ok": "гаразд: {count} {tools} ({where})",
    "check.warning": "попередження: {problem}",
    "check.hint": "порада: {problem}",
    "check.ok_warnings":
      "гаразд: {count} {tools} ({where}), {warnings} {warning_word}: оголошено правильно, але тут не працюватиме, доки це не виправлено (--strict: код 6)",
    "check.ok_no_manifest":
      "гаразд: 0 інструментів (маніфест не знайдено), 1 попередження (--strict: код 6)",
    "check.missing": "не знайдено; {hint}",
    "check.missing_both": "не знайдено, як і глобального маніфесту {global}; {hint}",
    "init.done":
      "Створено {manifest} (інструмент {tool}) і {script} — програму, яку він запускає.\n\nДалі:\n  {call}\n      викликати його: вас спитають перед запуском, потім він виведе відповідь\n  {rule}\n      запам’ятати правило, з яким він запускається без питань (і для агента)\n  {mcp}\n      надати його агентові через MCP (див. docs/mcp.md)\n  {check}\n      перевірити маніфест після редагування (редактор перевіряє його під час набору: див. $schema)",
    "init.exists": "Не вдалося створити {path}: він уже існує (нічого не записано)",
    "init.inside":
      "Не вдалося створити маніфест тут: цей каталог належить робочій області {root}, яка вже має маніфест (нічого не записано); щоб почати тут іншу робочу область, додайте -C .",
    "init.cannot_write": "Не вдалося створити {path}: {reason}",

    // rules
    "rules.none": "Збережених правил немає ({file})",
    "rules.ignored": " (ігнорується: див. rules check)",
    "rules.heading_id": "ID",
    "rules.heading_decision": "РІШЕННЯ",
    "rules.heading_tool": "ІНСТРУМЕНТ",
    "rules.heading_scope": "ОБЛАСТЬ",
    "rules.heading_when": "УМОВИ",
    "rules.global": "(глобальне)",
    "rules.workspace": "(робочий простір {path})",
    "rules.added": "Додано {id}: {decision} {tool} {scope}",
    "rules.removed": "Видалено {id}: {decision} {tool} {scope}",
    "rules.exists": "Уже є як {id}: {decision} {tool} {scope} (нічого не записано)",
    "rules.pinned": "  воно закріплює те, що інструмент запускає зараз ({fields}): {conditions}",
    "rules.problem_ignored": " (правило ігнорується)",
    "rules.ok": "гаразд: {count} {rules} ({file})",
    "rules.test_preview": "перегляд {preview}",
    "rules.test_allow_rule": "рішення  дозволено правилом {rule}",
    "rules.test_allow_policy": "рішення  дозволено через --approve always",
    "rules.test_deny_rule": "рішення  відхилено правилом {rule}",
    "rules.test_deny_policy": "рішення  відхилено через --approve never",
    "rules.test_ask_rule":
      "рішення  запитати: правило {rule} вимагає щоразу запитувати (відхиляється, коли нікого запитати)",
    "rules.test_ask":
      "рішення  запитати: жодне правило не відповідає, тож запитають людину (відхиляється, коли нікого запитати)",
    "rules.test_changed": "змінено  {files}, відколи правило {rule} їх закріпило",

    // permissions
    "permissions.warning": "basis-tools: попередження: {message}",

    // Файли, які не вдалося прочитати чи записати.
    "file.sandbox_read":
      "потрібен дозвіл на читання {path}: запустіть програму знову з прапорцем --allow-read",
    "file.sandbox_write":
      "потрібен дозвіл на запис у {path}: запустіть програму знову з прапорцем --allow-write",
    "file.read_not_file": "не вдалося прочитати: це не звичайний файл",
    "file.read_dangling_link":
      "не вдалося прочитати: це символьне посилання на {target}, якого не існує (вилучіть посилання або створіть файл)",
    "file.read_permission": "не вдалося прочитати: доступ заборонено",
    "file.read_sandbox":
      "не вдалося прочитати: заборонено дозволами Deno (надайте для нього --allow-read)",
    "file.read_other": "не вдалося прочитати: {reason}",
    "file.read_utf8": "не вдалося прочитати: це не текст у кодуванні UTF-8",
    "file.too_large": "не вдалося прочитати: файл більший за {limit}",
    "fs.no_space": "на пристрої не залишилося місця",
    "fs.quota": "перевищено дискову квоту",
    "fs.read_only": "файлова система доступна лише для читання",
    "fs.permission": "доступ заборонено",

    // Текст JSON, який пишуть люди (маніфести, spawn.json, rules.json, вхідні дані виклику).
    "json.at": "{detail} (рядок {line}, стовпець {column})",
    "json.quote_hint":
      `{detail} (можливо, оболонка забрала лапки? Візьміть JSON в одинарні лапки, як-от '{"text": "hi"}')`,
    "json.invalid": "некоректний JSON",
    "json.invalid_detail": "некоректний JSON: {detail}",
    "json.nested": "надто глибока вкладеність",
    "json.unexpected": "тут не очікувалося: {found}",
    "json.unexpected_expected": "тут не очікувалося: {found}; очікується {expected}",
    "json.property_name": "назва властивості в подвійних лапках",
    "json.value": "значення",
    "json.end": "кінець файлу",
    "json.end_input": "кінець вхідних даних",
    "json.string": "рядок",
    "json.number": "число",
    "json.unquoted": "текст без лапок",
    "json.single_quoted": "текст в одинарних лапках (потрібні подвійні)",
    "json.invalid_number": "некоректне число",
    "json.comment": "коментарі не дозволені",
    "json.unterminated_comment": 'незавершений коментар (очікується "*/")',
    "json.unterminated_string": "незавершений рядок",
    "json.bad_unicode": 'некоректна послідовність "\\u" у рядку',
    "json.bad_escape": "некоректна екранована послідовність у рядку",
    "json.control": "керівний символ у рядку (його треба екранувати)",
    "json.duplicate_key":
      "ключ указано двічі (уперше — рядок {line}, стовпець {column}); в об’єкті кожен ключ може бути лише один раз",

    // Проблеми маніфесту.
    "manifest.tool": "інструмент {tool}",
    "manifest.duplicate_tool":
      "оголошено двічі (уперше — рядок {line}, стовпець {column}); назву інструмента можна оголосити лише один раз",
    "manifest.schema_unusable": "{file}: {tool}: {field}: {reason}",
    "manifest.not_object": "маніфест має бути об’єктом JSON, а отримано {found}",
    "manifest.tools_required":
      "обов’язкове поле (об’єкт, ключі якого — назви інструментів; {} не оголошує жодного)",
    "manifest.tools_not_object":
      "має бути об’єктом, ключі якого — назви інструментів, а отримано {found}",
    "manifest.schema_required": "обов’язкове поле (ця програма читає версію {version})",
    "manifest.schema_unsupported":
      "непідтримувана версія {value} (ця програма читає версію {version})",
    "manifest.tool_not_object": "має бути об’єктом, а отримано {found}",
    "manifest.unknown_key": "невідомий ключ (очікується один із: {keys})",
    "manifest.unknown_key_near": "невідомий ключ; можливо, ви мали на увазі {key}?",
    "manifest.invalid_name": "неприпустима назва: {reason}",
    "manifest.name_empty": "не може бути порожньою",
    "manifest.name_long": "має містити не більше {max} символів, а містить {count}",
    "manifest.name_chars": 'дозволено лише A-Z, a-z, 0-9, "_" і "-", а знайдено {char}',
    "manifest.name_mcp": 'не може починатися з "mcp__" (зарезервовано для інструментів MCP)',
    "manifest.name_dash": 'не може починатися з "-" (командний рядок сприйняв би її як параметр)',
    "manifest.name_proto": '"__proto__" не дозволено',
    "manifest.name_reserved": "{name} — назва, вбудована в цю програму",
    "manifest.required": "обов’язкове поле",
    "manifest.blank": "обов’язкове поле (зараз воно порожнє)",
    "manifest.title_lines": "має бути одним рядком",
    "manifest.not_string": "має бути рядком, а отримано {found}",
    "manifest.nul": "не може містити символ NUL",
    "manifest.proto_key": 'ключ "__proto__" не дозволено',
    "manifest.schema_not_object": "має бути об’єктом JSON, а отримано {found}",
    "manifest.schema_type":
      'має бути "object" (вхідні дані інструмента — об’єкт JSON), а отримано {value}',
    "manifest.output_schema_type":
      'має бути "object" (структурований результат — об’єкт JSON), а отримано {value}',
    "manifest.schema_deep": "вкладеність глибша за {max} рівнів",
    "manifest.command_not_argv": "має бути масивом рядків, а отримано {found}",
    "manifest.command_shell":
      "має бути масивом рядків (argv, а не рядком для оболонки), а отримано {found}",
    "manifest.command_empty": "не може бути порожнім (перший елемент — програма)",
    "manifest.program_blank": "назва програми не може бути порожньою",
    "manifest.program_blank_expanded":
      "назва програми не може бути порожньою після підстановки змінних",
    "manifest.argument_not_string":
      'має бути рядком або {"input": "<властивість>"} для аргументу з вхідних даних, а отримано {found}',
    "manifest.argument_program": "програма не може братися з вхідних даних: запишіть її рядком",
    "manifest.argument_shape": 'аргумент із вхідних даних записують як {"input": "<властивість>"}',
    "manifest.argument_name": "має називати властивість вхідної схеми, а отримано {found}",
    "manifest.argument_unknown": "властивості {name} немає в input_schema.properties",
    "manifest.argument_unknown_near":
      "властивості {name} немає в input_schema.properties; можливо, ви мали на увазі {near}?",
    "manifest.argument_type":
      'щоб бути аргументом, властивість {name} має мати "type" "string", "integer", "number" або "boolean", а отримано {found}',
    "manifest.argument_optional":
      'властивість {name} має бути в input_schema.required: звичайний аргумент не можна пропустити (необов’язковий записують із "flag" або "prefix")',
    "manifest.argument_flag_type":
      'щоб бути прапорцем (присутнім, коли true), властивість {name} має мати "type" "boolean", а отримано {found}',
    "manifest.argument_flag":
      'має бути одним параметром: "-" і принаймні ще один символ, без пробілів і керівних символів, і не "--"',
    "manifest.argument_prefix":
      'має бути довгим параметром або словом, що закінчується на "=", як-от "--max-count=" чи "if=": значення йде після "=", тож ніколи не може вибрати параметр (не "-n=": багато розбирачів читають його як "-n", а далі параметри зі значення)',
    "manifest.argument_flag_prefix": 'аргумент має або "flag", або "prefix", але не обидва',
    "manifest.env_not_object": "має бути об’єктом зі змінними, а отримано {found}",
    "manifest.env_name_empty": "назва змінної не може бути порожньою",
    "manifest.env_name_equals": 'назва змінної не може містити "="',
    "manifest.env_name_nul": "назва змінної не може містити символ NUL",
    "manifest.env_value":
      'має бути рядком (секрет) або {"value": "…", "public": true} (налаштування), а отримано {found}',
    "manifest.output": 'має бути "text" або "content", а отримано {value}',
    "manifest.output_with_schema":
      'має бути "text", коли задано output_schema (структурований результат — один об’єкт JSON), а отримано {value}',
    "manifest.side_effect": 'має бути "process" або "external", а отримано {value}',
    "manifest.timeout_invalid":
      "має бути цілою кількістю мілісекунд, більшою за 0, а отримано {value}",
    "manifest.timeout_max": "має бути не більшим за {max} (близько 24,8 доби), а отримано {value}",
    "manifest.exit_codes": "має бути масивом кодів завершення, а отримано {found}",
    "manifest.exit_codes_empty": "має містити принаймні один код завершення",
    "manifest.exit_codes_twice": "код завершення {value} вказано двічі",
    "manifest.exit_code": "має бути цілим числом від 0 до 255, а отримано {value}",
    "manifest.sandbox_not_object":
      'має бути об’єктом із "network", "write" і "read", а отримано {found}',
    "manifest.not_boolean": "має бути true або false, а отримано {found}",
    "manifest.sandbox_paths": "має бути масивом шляхів, а отримано {found}",
    "manifest.sandbox_tilde": 'має починатися з "~/", щоб назвати шлях у домашньому каталозі',
    "manifest.sandbox_escapes": 'не може виходити за межі {base} через ".."',
    "manifest.sandbox_root": "кореня робочого простору",
    "manifest.files_list":
      "має бути масивом шаблонів відносно кореня робочого простору, знайдено {found}",
    "manifest.files_outside": 'має бути відносно кореня робочого простору, без ".."',
    "manifest.files_backslash": "закінчується самотнім \\ (пишіть \\\\ для зворотної косої риски)",
    "check.files_hint":
      '{script} запускає {program}: перелічіть у "files", що ще він завантажує (наприклад ["{dir}/**"]), щоб схвалення закріплювало й це',
    "manifest.expand_unterminated": 'незавершене "${" (очікується "}")',
    "manifest.expand_empty": 'порожнє "${}" (очікується назва змінної)',
    "manifest.expand_bad_name":
      'неприпустима назва змінної в "${…}" (назва складається з літер, цифр і "_" і не починається з цифри)',
    "manifest.expand_unset":
      'змінну {variable} не задано (щоб мати типове значення, напишіть "${{name}:-default}")',
    "manifest.expand_unsupported":
      'непідтримувана підстановка змінної {variable} (підтримуються лише "${NAME}" і "${NAME:-default}")',
    "manifest.expand_nested":
      'вкладене "${" у типовому значенні змінної {variable} не підтримується',
    "manifest.expand_not_public":
      "публічне значення не може читати змінну {variable}: у ній може бути секрет (можна читати {allowed}; значення-рядок лишається секретом)",
    "manifest.expand_shown":
      "не може читати змінну {variable}: у ній може бути секрет, а команду й cwd показують до схвалення (можна читати {allowed}; інші значення передайте програмі через env)",
    "manifest.secret_written":
      'містить значення env.{variable}, а це секрет, тож схвалювач не побачив би його (його приховано): оголосіть це значення публічним ({"value": …, "public": true}) або приберіть його з того, що показують',
    "manifest.empty_file": 'порожній файл (очікується {"schema": 1, "tools": {}})',
    // Що означають шаблони схем конфігурації (schemas/*.schema.json).
    "config.not_blank": "не може бути порожнім чи лише з пропусків",
    "config.not_empty": "не може бути порожнім",
    "config.name": 'може містити лише літери, цифри, "_" і "-"',
    "config.tool_name":
      'має бути назвою інструмента: від 1 до 64 літер, цифр, "_" і "-", не на початку "-"',
    "config.rule_id":
      "має містити від 1 до 64 літер, цифр, '.', '_' або '-' і починатися з літери чи цифри",
    "config.root": "має бути абсолютним нормалізованим шляхом",
    "config.absolute": "має бути абсолютним шляхом",
    "config.one_line": "має бути одним рядком",
    "config.pointer": "має бути вказівником JSON (порожній або починається з /)",
    "config.content_tool": 'має бути "program", "files" або "argv[N]"',
    "config.content_spawn": 'має бути "word[N]"',
    "config.glob": "закінчується самотнім \\ (для зворотної скісної риски пишіть \\\\)",
    "config.sha256": "має бути SHA-256: 64 малі шістнадцяткові цифри",
    "config.salt": "має бути сіллю: 32 малі шістнадцяткові цифри",
    "config.grant_path": 'має бути абсолютним шляхом або починатися з "~/"',
    "spawn_config.empty": "порожній файл (очікується об’єкт JSON; {} означає типові налаштування)",
    "spawn_config.reach_default_missing":
      'потрібен "default": "allow" не містить "any", типового значення, коли "default" не вказано',
    "spawn_config.reach_default_allowed": "має бути одним із дозволених значень: {allowed}",
    "spawn_config.placeholder":
      'використовує {placeholder}, але жодна політика дочірнього процесу не задає "{key}" для цього агента (додайте його до "child")',

    "sandbox_config.empty": "порожній файл (очікується об’єкт JSON; {} означає типові значення)",
    "sandbox.bwrap_missing":
      'bubblewrap ("bwrap") не знайдено ні в /usr/bin, /bin, /usr/local/bin, ні в PATH; встановіть його (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
    "sandbox.bwrap_not_there": "bubblewrap немає в {path}, де його вказує {file}",
    "sandbox.bwrap_untrusted":
      "bubblewrap у {path} не використовується: він або каталог над ним належить не root чи доступний для запису іншим (програму там міг би підмінити не лише root); встановіть його з пакетів системи",
    "sandbox.bwrap_broken": "bubblewrap не може створити потрібні виклику простори імен: {detail}",
    "sandbox.bwrap_refused":
      "дозволи Deno не дають запустити bubblewrap; дозвольте це через {flag}",
    "sandbox.unsupported": "для {os} немає пісочниці ОС",
    "sandbox.required":
      "пісочниця обов’язкова за {file}, але не може обмежити цей виклик: {reason}",
    "sandbox.no_home":
      'шлях пісочниці починається з "~", а домашній каталог невідомий (HOME не задано або він відносний)',
    "sandbox.grant_refused": 'дозвіл пісочниці {grant} не дозволено в {file} (див. "grantable")',
    "sandbox.cwd_covered":
      "його робочий каталог {cwd} не видно в пісочниці ({place} там закрито); його показує дозвіл на читання чи запис цього каталогу, якщо {file} такий дозволяє",
    "sandbox.trusted_write":
      "він записував би {path} у {dir}, власний каталог basis-tools, куди жодному виклику писати не можна",
    "sandbox.trusted_read":
      "він читав би {path} у каталозі налаштувань basis-tools {dir}, який жодному виклику читати не можна",
    "sandbox.trusted_link":
      "він записував би {path}, де лежить символьне посилання {link} на шляху до власного {dir} basis-tools: виклик міг би спрямувати його деінде",
    "sandbox.note":
      'примітка: інструменти працюють без пісочниці: {reason}; задайте "mode" у {file} як "off", щоб працювати так без цієї примітки, або "required", щоб відмовляти',

    // Файли правил і команда rules.
    "rules.cannot_add": "Не вдалося додати правило для інструмента {tool}: {problem}",
    "rules.cannot_read": "не вдалося прочитати {path}, щоб закріпити його вміст ({where})",
    "rules.cannot_add_unnamed": "Не вдалося додати правило для інструмента: {problem}",
    "rules.cannot_remove":
      "Не вдалося видалити правило {id}: у {file} немає правила з таким ідентифікатором",
    "rules.cannot_save": "Не вдалося зберегти правила {file}: {reason}",
    "rules.save_too_large":
      "файл став би більшим за {limit}, а більшого basis-tools не читає; спершу видаліть правила (rules list, rules remove ID)",
    "rules.lock_busy":
      "Не вдалося зберегти правила {file}: інший процес тримає блокування {lock} уже {ms} мс; спробуйте ще раз, коли він завершить",
    "rules_file.unusable": "файл непридатний до використання",
    "rules_file.read_sandbox": "читання неможливе: дозвіл --allow-read у Deno не охоплює цей файл",
    "rules_file.read_permission": "читання неможливе: доступ заборонено",
    "rules_file.read_failed": "читання неможливе: {reason}",
    "rules_file.not_regular": "це не звичайний файл",
    "rules_file.dangling_link":
      "символьне посилання на {target}, якого не існує: правила, що мали б бути тут, прочитати неможливо",
    "rules_file.loose_mode":
      "змінювати файл можуть група або інші користувачі (режим {mode}), тож будь-хто міг би підтверджувати виклики інструментів: виконайте для нього chmod 600",
    "rules_file.dir_loose_mode":
      "до його каталогу {dir} можуть писати група або інші (режим {mode}), тож будь-хто міг би схвалювати інструменти: виконайте chmod 700 для нього",
    "rules_file.owner":
      "належить іншому користувачеві (uid {uid}, ваш — {own}): довіряються лише ваші власні правила",
    "rules_file.dir_owner":
      "його каталог {dir} належить іншому користувачеві (uid {uid}, ваш — {own}): довіряються лише ваші власні правила",
    "rules_file.owner_unknown":
      "неможливо визначити власника: дозвіл --allow-sys=uid у Deno не надано",
    "rules_file.not_utf8": "вміст не є коректним текстом UTF-8",
    "rules_file.empty": "файл порожній",
    "rules_file.version_newer":
      "непідтримувана версія {version}: файл записала новіша версія basis-tools (ця програма читає версію {expected})",
    "rules_file.version_old":
      'версія 1 більше не читається: її шаблони зіставлялися з текстом через межі полів, тож її правила не можна безпечно перенести; перемістіть файл деінде й додайте правила знову командою "basis-tools rules add" (без умов вона закріплює поточну команду інструмента)',
    "rules_file.in_rule": "правило rules[{index}] {id}: {problem}",
    "rules_file.in_rule_no_id": "правило rules[{index}]: {problem}",
    "rules_file.field": "поле {field}: {problem}",
    "rules_file.timestamp": "має бути позначкою часу у форматі ISO 8601",
    "rules_file.id_taken": "такий ідентифікатор уже має попереднє правило",
    "rules_file.needs_program":
      "правило allow для оголошеного інструмента має закріпити програму, яку він запускає (поле program): сама лише назва ніколи нічого не схвалює",
    "rules_file.needs_body":
      "правило allow для spawn має сказати, яку команду чи завдання (поле body)",
    "rules_file.holds_secret":
      "{field} містить значення секрету (значення env); зберегти, як дайджест, можна лише точну програму, аргумент, cwd, тіло чи дозволи",
    "rules_file.rest_last": '{"rest": true} може стояти лише останнім',
    "rules_file.example_shape": "приклад {field}: {problem}",
    "rules_file.example_tool_shape":
      'не є попереднім переглядом цього інструмента: "program", "command" і "cwd" обов’язкові, "tool", "env" (об’єкт назв і значень), "sandbox" та "input" — ні',
    "rules_file.example_spawn_shape":
      'не є попереднім переглядом spawn: "mode" і "body" обов’язкові, "cwd", "target", "sandbox", "reach" і "child" — ні',
    "rules_file.duplicate_key":
      "задано двічі, у {line}:{column} (уперше в {first_line}:{first_column}); ключ може трапитися в об’єкті лише раз",
    "rules_file.example_unmatched": "правило не збігається з прикладом match[{index}] {text}",
    "rules_file.example_matched": "правило збігається з прикладом not_match[{index}] {text}",

    // Попередження permissions.
    "permissions.unresolved":
      "Не включено до --allow-run ({user}): {reason}; виклики відхилятимуться, доки програма не зможе запуститися і permissions не буде виконано знову",
    "permissions.confinement":
      "Дозвіл на {path} ({users}) зводить обмеження нанівець: {why}, а --allow-run не може обмежити аргументи програми",
    "permissions.why_shell": "оболонка виконує будь-яку команду, яку їй передано",
    "permissions.why_launcher":
      "ця програма запускає будь-яку іншу програму, названу в її аргументах",
    "permissions.why_interpreter": "ця програма виконує будь-який код, переданий їй в аргументах",
    "permissions.confinement_sandboxed":
      "Дозвіл {path} ({users}) дає змогу запускати будь-що: {why}, а --allow-run не може обмежити її аргументи; проте пісочниця ОС обмежує все, що вона запускає, дозволами, показаними під час схвалення виклику",
    "permissions.inline_code": "{user} передає їй код через {flag}",
    "permissions.unexpressible":
      "Шлях {path} не включено до прапорців: Deno розділяє значення прапорців комами й не дає їх екранувати; використайте --format deno-json або перенесіть його туди, де в шляху немає коми",
    "permissions.environment":
      "Середовище містить {variables}: з обмеженим --allow-run Deno не запускає жодної програми, поки задано змінні LD_* або DYLD_*; приберіть їх із середовища перед запуском basis-tools",
    "permissions.compile_self":
      "Скомпільований двійковий файл не може скомпілювати сам себе: команда збирає з basis-tools.js (результат deno task bundle або файл із релізу); виправте цей шлях",
    "permissions.user_spawn_commands": "команди spawn",
    "permissions.user_spawn_target": "ціль spawn {target}",
    "permissions.user_spawn_agent": "субагент spawn",
    "permissions.user_spawn_named_agent": "агент spawn {agent}",
    "permissions.user_sandbox": "пісочниця ОС",
    "permissions.hint_no_shell": "--no-shell вимикає команди spawn, і тоді цього дозволу не буде",
    // Як мова перелічує тих, хто запускає програму, і додає примітку до попередження.
    "permissions.list": "{list}, {item}",
    "permissions.more": "{text}; {more}",

    // Форма схвалення, яку показує клієнт MCP.
    "elicit.decision_description":
      "Дозволяти завжди — запам’ятати правило для саме цієї команди (з будь-якими вхідними даними); Відхилити — відмовити в цьому виклику",
    "elicit.cannot_ask":
      "Не вдалося запитати клієнта MCP про виклик інструмента {tool}: {reason}; виклик відхилено",
    "elicit.no_client":
      "Виклик інструмента {tool} відхилено: жодне збережене правило його не дозволяє, а цей клієнт MCP не вміє запитувати підтвердження (він не підтримує elicitation); дозвольте його командою `{command}` або запустіть сервер MCP з --approve always",
    "elicit.no_client_ask_rule":
      "Виклик інструмента {tool} відхилено: правило {rule} вимагає щоразу питати, а цей клієнт MCP не вміє питати дозволу (не підтримує elicitation)",
    "elicit.denied":
      "Виклик інструмента {tool} відхилено в клієнті MCP: людина, яку спитали, його відхилила",
    "elicit.declined":
      "Виклик інструмента {tool} відхилено: людина відхилила запит на дозвіл у клієнті MCP",
    "elicit.cancelled":
      "Виклик інструмента {tool} відхилено: запит на дозвіл у клієнті MCP закрили без відповіді",
    "elicit.failed":
      "Виклик інструмента {tool} відхилено: клієнт MCP не зміг спитати дозволу (див. журнал сервера)",

    // Сервер MCP (його журнал і те, що він повідомляє клієнтові).
    "mcp.instructions":
      "Інструменти, оголошені для цього робочого простору, і spawn. Кожен виклик перевіряється за схемою вхідних даних інструмента й підтверджується, перш ніж щось буде запущено.",
    "mcp.serving_http":
      "Сервер MCP (Streamable HTTP на {url}) надає {count} {tools} для робочого простору {root}",
    "mcp.envelope":
      "Некоректні параметри: params._meta має містити {keys} (MCP 2026-07-28 передає версію протоколу й можливості клієнта в кожному запиті)",
    "mcp.legacy_connection":
      "Некоректний запит: {method} має обгортку 2026-07-28 у з’єднанні, що почалося з initialize (протокол 2025)",
    "mcp.state_refused":
      "Відповідь про дозвіл для інструмента {tool} нічого не дозволяє: її requestState не створено цим сервером саме для цього виклику, його змінено, строк минув або його вже використано; викличте інструмент знову, щоб вас запитали",
    "mcp.state_refused_log":
      "Відхилено відповідь про дозвіл для інструмента {tool}: її requestState — {verdict}",
    "http.not_found": "Не знайдено: точка доступу MCP — /mcp",
    "http.content_type": "Непідтримуваний тип даних: повідомлення надсилають як application/json",
    "http.header_mismatch":
      "Невідповідність заголовка: заголовок {header} не збігається з тілом запиту",
    "http.no_session":
      "Такого сеансу немає: сеанс починається з initialize, або надсилайте MCP-Protocol-Version: 2026-07-28 для запитів без сеансу",
    "mcp.cannot_listen": "Не вдалося слухати на {address}: {reason}",
    "mcp.serving": "Сервер MCP (stdio) надає {count} {tools} для робочого простору {root}",
    "mcp.reload_failed":
      "Не вдалося перезавантажити перелік інструментів; далі використовується останній справний:",
    "mcp.cannot_watch": "Не вдалося стежити за каталогом {dir}: {reason}",
    "mcp.unknown_tool_near": "Невідомий інструмент {tool}; можливо, ви мали на увазі {names}?",
    "mcp.unknown_tool": "Невідомий інструмент {tool}; див. tools/list",
    "mcp.progress": "Поки що виведено {count} {lines}",
    "mcp.float_multiple_of":
      "Результат інструмента {tool} відхилено: {value} у {pointer} кратне {divisor}, але клієнти MCP перевіряють multipleOf у числах із рухомою комою й відхилили б його; вивід подано нижче текстом",
    "mcp.printed_before": "Що було виведено до зупинки:",
    "mcp.tool_unusable": "Інструмент {tool}: {problem}",
    "mcp.tool_left_out":
      "Інструментом {tool} не можна скористатися; його немає в tools/list, доки його не виправлять:",
    "mcp.tool_back": "Інструментом {tool} знову можна скористатися; він знову є в tools/list",
    "mcp.tool_unavailable": "Інструментом {tool} не можна скористатися: {problems}",
    "mcp.tool_bug": "Внутрішня помилка basis-tools під час виклику інструмента {tool}: {detail}",
    "mcp.tool_bug_reply":
      "Внутрішня помилка basis-tools під час виклику інструмента {tool}; подробиці — у stderr сервера",
    "mcp.refused": "Повідомлення від клієнта відхилено: {reason}",
    "mcp.too_large":
      "Повідомлення відхилено: його розмір {size}, а одне повідомлення може мати не більше {limit}",
    "mcp.not_json": "Повідомлення не є JSON: {detail}",
    "mcp.not_utf8": "це не текст у кодуванні UTF-8",
    "mcp.batch":
      "Некоректний запит: пакети (масиви JSON) не підтримуються; надсилайте одне повідомлення в рядку",
    "mcp.invalid_request":
      "Некоректний запит: це не запит, сповіщення чи відповідь JSON-RPC 2.0 у тому вигляді, як їх визначає MCP",
    "mcp.bad_notification":
      "сповіщення не в тому вигляді, як їх визначає MCP (на сповіщення відповіді не буває)",
    "mcp.duplicate_id":
      "Некоректний запит: ідентифікатор {id} належить запиту, який ще виконується; кожен запит має мати власний ідентифікатор",
    "mcp.not_initialized":
      "Некоректний запит: {method} до initialize; сеанс починається з initialize (раніше можна лише ping)",
    "mcp.stray_response": "відповідь на жоден запит сервера (на відповіді відповіді не буває)",
    "mcp.invalid_params": "Некоректні параметри {method}: {field} має неприпустиме значення",
    "mcp.invalid_params_type":
      "Некоректні параметри {method}: {field} — очікується {expected}, а отримано {found}",
    "audit.cannot_write":
      "Не вдалося записати журнал аудиту {path}: {reason}; далі виклики виконуються без аудиту",
    "audit.not_regular_file":
      "це не звичайний файл (FIFO, пристрій чи сокет ніколи не відкриваються)",
    "audit.warning": "basis-tools: попередження: {message}",

    // Проблеми схем (check і схема, яку не вдалося скомпілювати).
    "schema_problem.invalid": "некоректна JSON Schema: {detail}",
    "schema_problem.invalid_at": "некоректна JSON Schema: {pointer}: {reason}",
    "schema_problem.not_schema": "має бути об’єктом або логічним значенням",
    "schema_problem.proto_key": '"__proto__" не можна використовувати як ключ',
    "schema_problem.not_json": "її неможливо записати як JSON",
    "schema_problem.unresolved_ref": 'не вдалося розв’язати "$ref" {ref}',
    "schema_problem.draft_not_string": 'непідтримуваний "$schema": має бути рядком',
    "schema_problem.draft_unknown":
      'непідтримуваний "$schema" {value}: використовуйте draft-07 (типовий), draft-06, 2019-09 або 2020-12',
    "schema_problem.pattern_unsupported": "непідтримуваний шаблон {pattern} у {pointer}: {reason}",
    "schema_problem.regex_backreference":
      "зворотні посилання не виконуються за лінійний час (шаблони виконує RE2)",
    "schema_problem.regex_lookahead":
      "випереджальні перевірки не виконуються за лінійний час (шаблони виконує RE2)",
    "schema_problem.regex_engine": "рушій лінійного часу (RE2) його не приймає: {detail}",

    // Інші помилки.
    "error.no_home":
      "Не вдалося визначити каталоги користувача: HOME не містить абсолютного шляху; задайте HOME або вкажіть абсолютний шлях у {override} чи {variable}",
    "error.input_schema": "Не вдалося використати схему вхідних даних інструмента {tool}: {reason}",
    "error.output_schema": "Не вдалося використати схему результату інструмента {tool}: {reason}",
    "error.spawn_unknown_target": "Виклик spawn відхилено: невідома ціль {target}",
    "error.spawn_unknown_agent": "Виклик spawn відхилено: невідомий агент {agent}",
    "error.spawn_no_agent": "Виклик spawn відхилено: субагента не налаштовано",
    "error.spawn_no_lineage":
      "Виклик spawn відхилено: не вдалося зберегти глибину й перелік інструментів субагента в {dir} (каталог стану лише для читання чи переповнений, або виклик у пісочниці)",

    // Запит на підтвердження в терміналі.
    "prompt.title_tool": "basis-tools питає дозволу, перш ніж запустити інструмент",
    "prompt.title_command": "basis-tools питає дозволу, перш ніж виконати команду",
    "prompt.tool": "інструмент",
    "prompt.program": "програма",
    "prompt.side_effect": "побічна дія",
    "prompt.command": "команда",
    "prompt.cwd": "каталог",
    "prompt.env": "змінні",
    "prompt.input": "вхідні дані",
    "prompt.mode": "режим",
    "prompt.task": "завдання",
    "prompt.target": "ціль",
    "prompt.reach": "досяжність",
    "prompt.child": "дочірній",
    "prompt.child_roster": "інструменти: {names}",
    "prompt.child_no_tools": "інструменти: жодного",
    "prompt.child_model": "модель: {model}",
    "prompt.child_system_prompt": "системну підказку замінено на:",
    "prompt.none": "(немає)",
    "prompt.env_names": "{names} (значення не показано)",
    "prompt.sandbox": "пісочниця",
    "prompt.sandbox_default": "обмежено: нічого понад типову пісочницю",
    "prompt.sandbox_grants": "обмежено, але дозволено {grants}",
    "prompt.sandbox_network": "доступ до мережі",
    "prompt.sandbox_write": "запис у {paths}",
    "prompt.sandbox_read": "читання {paths}",
    "prompt.sandbox_unconfined": "без пісочниці (з усіма вашими правами)",
    "prompt.effect_process": "запускає програму на цьому комп’ютері",
    "prompt.effect_external": "діє на системи за межами цього комп’ютера",
    "prompt.effect_local_state": "передає завдання субагентові на цьому комп’ютері",
    "prompt.cut": "… і ще {lines} {line_word} ({bytes} {byte_word})",
    "prompt.question": "Дозволити цей виклик?",
    "prompt.allow_once": "Дозволити один раз",
    "prompt.allowed_once": "Дозволено один раз",
    "prompt.always_allow": "Дозволяти завжди (запам’ятати саме цю команду)",
    "prompt.always_allow_any": "Дозволяти завжди (цю команду, з будь-якими значеннями {fields})",
    "prompt.always_allowed": "Дозволено завжди",
    "prompt.remembered": "Запам’ятовано як правило {rule}",
    "prompt.not_remembered": "Дозволено цього разу, але не запам’ятовано: {reason}",
    "prompt.not_remembered_never": "Заборонено цього разу, але не запам’ятовано: {reason}",
    "prompt.deny": "Відхилити",
    "prompt.denied": "Відхилено",
    "prompt.never": "Ніколи (запам’ятати відмову)",
    "prompt.nevered": "Ніколи",
    "prompt.asked_by_rule":
      "Запитано, бо правило {rule} вимагає щоразу запитувати; відповідь не запам’ятовується",
    "prompt.changed": "змінено",
    "prompt.changed_since": "відколи правило {rule} дозволило цей виклик:",
    "prompt.change_changed": "{path}: змінено",
    "prompt.change_added": "{path}: новий, правило його не закріплювало",
    "prompt.change_removed": "{path}: зник",
    "prompt.not_whole":
      "Задовге, щоб показати повністю: можна дозволити один раз, не запам’ятовуючи",
    "prompt.key_navigate": "перейти",
    "prompt.key_select": "вибрати",
    "prompt.key_deny": "відхилити",

    // Тексти --help (назви параметрів і команд та приклади не перекладаються).
    "help.global": "Параметри для кожної команди (перед її назвою або після):",
    "help.more": "Власні параметри команди: basis-tools help COMMAND (або COMMAND --help).",
    "help.options": "Параметри:",
    "help.tool_usage": "Використання: basis-tools call {name} [INPUT|-]\nПриклад: {example}",
    "help.tool_command": "Запускає: {command}",
    "help.tool_env": "Середовище: {env}",
    "help.tool_effect": "Побічна дія: {effect}",
    "help.tool_effect_timeout": "Побічна дія: {effect}; обмеження часу: {ms} мс",
    "help.tool_sandbox": "Пісочниця: {sandbox}",
    "help.tool_empty": "Вхідні дані: {} (схема не дозволяє жодних полів)",
    "help.tool_any": "Вхідні дані: будь-який об’єкт JSON (схема не називає полів)",
    "help.tool_fields":
      "Вхідні дані: один об’єкт JSON, який програма читає зі stdin, з такими полями:",
    "help.tool_yes": "так",
    "help.tool_no": "ні",
    "help.tool_heading_field": "ПОЛЕ",
    "help.tool_heading_type": "ТИП",
    "help.tool_heading_required": "ОБОВ’ЯЗКОВЕ",
    "help.tool_heading_default": "ТИПОВО",
    "help.tool_heading_description": "ОПИС",
    "help.tool_other_fields": "Поля, яких тут немає, теж дозволено.",
    "help.tool_argument": "Значення {field} також є аргументом {index} команди (<{field}> вище).",
    "help.tool_flag":
      "Коли {field} дорівнює true, аргумент {index} команди — {flag} ([{flag}] вище); інакше його немає.",
    "help.tool_prefix":
      "Коли {field} задано, аргумент {index} команди — {prefix} і його значення ([{prefix}<{field}>] вище); інакше його немає.",
    "help.top":
      "basis-tools — оголошені програми як типізовані інструменти зі схемою та підтвердженням\n\nВикористання: basis-tools [параметри] <команда> [аргументи]\n\nКоманди:\n  init                    почати робочий простір: .basis/tools.json і приклад інструмента\n  list                    перелік інструментів: назва, побічна дія, джерело, опис\n  show NAME               один інструмент повністю (значення змінних приховано)\n  check                   перевірити маніфести (код 0, або 6 і по рядку на кожну проблему)\n  call NAME [INPUT|-]     запустити інструмент з об’єктом JSON як вхідними даними\n                          (call NAME --help: опис інструмента та поля його вхідних даних)\n  spawn STRING            '!cmd' виконує команду, '!@target cmd' виконує її на цілі,\n                          будь-що інше — завдання для налаштованого субагента\n  schema [--format F]     визначення інструментів для API моделі: openai (типово), anthropic,\n                          mcp, gemini (те, що читає discoveryCommand у Gemini CLI)\n  rules list|add|test|remove|check   збережені правила підтвердження\n  permissions             мінімально необхідні дозволи Deno для цього робочого простору\n  mcp                     надавати інструменти клієнтові MCP через stdio\n  completion SHELL        сценарій доповнення для bash, zsh або fish\n  help [COMMAND]          ця довідка або довідка команди\n\n{global}\n\nКоди завершення: 0 успіх, 1 збій інструмента, 2 неправильне використання, 3 час вичерпано,\n4 вхідні дані відхилено, 5 відмовлено, 6 маніфест недійсний, 130 перервано.",
    "help.init":
      "Використання: basis-tools init [-C DIR]\n\nПочинає робочий простір у DIR (типово — поточний каталог): записує .basis/tools.json, що називає\nсвою JSON-схему ($schema), щоб редактори перевіряли й доповнювали його, і .basis/tools/hello.sh —\nінструмент, який читає вхідні дані як JSON зі stdin і бере одне поле як аргумент; потім підказує,\nщо робити далі. Нічого не перезаписує: якщо маніфест уже є (або каталог лежить у робочому\nпросторі, що його має), завершується з кодом 2 і нічого не записує.",
    "help.help":
      "Використання: basis-tools help [COMMAND]\n\nВиводить довідку програми або команди (те саме, що COMMAND --help).\nbasis-tools call NAME --help описує один інструмент: що він робить і поля його вхідних даних.",
    "help.list":
      "Використання: basis-tools list [--json]\n\nВиводить перелік інструментів: спершу інструменти робочого простору за назвою, потім глобальні,\nяких робочий простір не перекриває, потім spawn; інструмент, яким не можна скористатися, каже чому.\nУ терміналі стовпці обрізано до його ширини; у каналі чи файлі кожен рядок повний.",
    "help.show":
      "Використання: basis-tools show NAME [--json]\n\nПоказує один інструмент повністю: опис, команду (<назва> там, де аргумент береться з вхідних\nданих), робочий каталог, назви змінних середовища (значення приховано), побічну дію, обмеження\nчасу, схему вхідних даних і файл, де його оголошено.",
    "help.check":
      "Використання: basis-tools check [--strict] [--json]\n\nПеревіряє маніфести робочого простору й глобальний, зокрема схеми вхідних даних і результату\nкожного інструмента, а також налаштування spawn (spawn.json у каталозі конфігурації): код 6 і по\nрядку на кожну проблему. Те, що зламається лише під час виклику тут, — програму не знайдено в\nPATH чи вона не виконувана, відносної програми не існує, робочий каталог не є каталогом, — це\nпопередження (код 0; такий інструмент недоступний, доки це не виправлено); з --strict це\nпроблема (код 6).",
    "help.call":
      "Використання: basis-tools call NAME [INPUT|-] [параметри]\n       basis-tools call NAME --help\n\nЗапускає один інструмент. INPUT — об’єкт JSON; '-' або відсутній INPUT, коли stdin — канал чи файл,\nозначає читання з stdin (порожній stdin відхиляється); відсутній INPUT у терміналі чи з /dev/null\nозначає {}. Вхідні дані перевіряються за схемою інструмента, виклик підтверджується (--approve;\nколи вхідні дані надходять каналом, питання ставиться в терміналі, /dev/tty), далі програма\nотримує вхідні дані як компактний JSON через stdin, кожне число — як його записано, а її вивід\nпередається далі. З --json виводить один об’єкт:\n{tool, ok, result, structured_content, stdout, stderr, exit_code, signal, timed_out, truncated, duration_ms, error}.\ncall NAME --help показує опис інструмента й поля його вхідних даних. Під назвою\n\"basis-tools-call\" (посилання) двійковий файл — це call --quiet --result: callCommand для Gemini CLI.",
    "help.spawn": `Використання: basis-tools spawn STRING [параметри]

Вбудований інструмент spawn (його також можна викликати так: basis-tools call spawn '{"input":"!ls"}').
  !<command>            виконує команду через /bin/sh -c у корені робочого простору, в окремій
                        групі процесів, лише з PATH, HOME, LANG і парами --env
  !@<target> <command>  виконує її на цілі зі spawn.json: argv цілі, до якого команду
                        додано одним аргументом
  !!<text>              завдання, що починається з '!'
  <text>                завдання для субагента зі spawn.json (текст — у його stdin, відповідь —
                        з його stdout); відхиляється на глибині делегування max_depth (типово 2)
  @<agent> <text>       завдання для названого агента зі spawn.json ("agents")
  @@<text>              завдання для субагента, що починається з '@'
Необов’язкове поле вхідних даних "reach" ("local", "named" або "any") обмежує, до яких агентів
може йти завдання; "reach" у spawn.json визначає дозволені значення й типове.
Вивід передається одразу; для --json з кожного потоку зберігається до 64 КіБ, і виводиться
{ok, mode, target, result, stdout, stderr, exit_code, error, stdout_truncated,
stderr_truncated, duration_ms}. Налаштування: spawn.json у каталозі конфігурації,
{"agent": [argv], "agents": {"name": [argv]}, "targets": {"name": [argv prefix]},
"max_depth": 2, "reach": {"allow": [...], "default": "any"}, "child": {"roster": [names],
"model": "...", "system_prompt": "..."}}.`,
    "help.permissions":
      "Використання: basis-tools permissions [--format flags|json|deno-json|compile] [--no-shell]\n\nВиводить із маніфестів мінімально необхідні дозволи Deno для цього робочого простору: --allow-run\nдля абсолютного шляху кожної оголошеної програми (короткі назви шукаються в PATH зараз), програми\nkill, що зупиняє групу процесів інструмента після вичерпання часу, /bin/sh для команд spawn (не\nз --no-shell), а також цілей і субагента spawn; --allow-read для робочого простору, каталогів\nконфігурації й кешу, файлів, які переглядаються під час пошуку програм, і /dev/tty (питання);\n--allow-write для каталогів конфігурації, кешу й стану та /dev/tty; --allow-env для змінних, які\nчитає basis-tools, і ${VAR}, що використовують маніфести; --no-prompt. Попередження йдуть у stderr:\nпрограми, яких не знайдено (їх пропущено), і дозволи, що зводять обмеження нанівець (оболонки,\nenv, xargs, інтерпретатори, ...).",
    "help.mcp":
      "Використання: basis-tools mcp [--http HOST:PORT] [--approve prompt|always|never] [-C DIR]\n\nНадає інструменти (оголошені та spawn) клієнтові MCP через stdio: stdout містить лише протокол,\nжурнал іде в stderr. З --http — натомість через Streamable HTTP на http://HOST:PORT/mcp (лише\nloopback, якщо не задано токен: $BASIS_MCP_TOKEN, інакше створений і один раз виведений у stderr;\nзаголовки Host і Origin мають називати цю адресу). Для клієнтів протоколу 2025 і 2026-07-28. Виклики проходять ту саму перевірку схемою, правила й підтвердження, що й\ncall. Виклик, на який не відповідає жодне правило, клієнт показує людині (elicitation), якщо\nпідтримує це; інакше його відхилено, хіба що задано --approve always. --approve never відхиляє,\nне питаючи. Зміни маніфестів і spawn.json перезавантажують перелік інструментів (зламана зміна\nлишає останній справний); інструмент, яким не можна скористатися, пропускається й один раз\nзаписується в журнал. Сервер завершується, зупинивши всі виклики, коли клієнт закриває stdin;\nSIGINT чи SIGTERM теж його завершують (код 0, якщо він нічого не виконував).",
    "help.schema":
      'Використання: basis-tools schema [--format openai|anthropic|mcp|gemini|openai-responses] [--locale LOCALE]\n\nВиводить визначення інструментів (спершу оголошені, потім spawn) одним масивом JSON у формі, яку\nприймає API моделі. --locale змінює тексти вбудованого інструмента spawn, але ніколи не назви чи\nсхеми. Інструменти, якими не можна скористатися, пропускаються, з рядком у stderr.\n\nGemini CLI (settings.json): "tools": {"discoveryCommand": "basis-tools schema --format gemini",\n"callCommand": "basis-tools-call"}, де "basis-tools-call" — посилання на двійковий файл: Gemini CLI\nзапускає його з назвою інструмента єдиним аргументом і аргументами як JSON у stdin.',
    "help.completion":
      "Використання: basis-tools completion bash|zsh|fish\n\nВиводить сценарій, який доповнює в цій оболонці команди basis-tools, їхні параметри та значення\nпараметрів, а також назви інструментів робочого простору, який називає командний рядок (-C, інакше\nпоточного каталогу):\n  bash   у ~/.bashrc: source <(basis-tools completion bash)\n  zsh    у ~/.zshrc, після compinit: source <(basis-tools completion zsh)\n  fish   basis-tools completion fish > ~/.config/fish/completions/basis-tools.fish\nКожне доповнення запускає basis-tools completion candidates -- WORD..., що виводить можливі\nпродовження останнього слова, по одному в рядку: назви інструментів беруться з маніфестів, які\nчитаються так само, як для list; жоден інструмент не запускається.",
    "help.rules":
      "Використання: basis-tools rules list [--json]\n       basis-tools rules add --tool NAME [умови] [--deny | --ask] [--reason TEXT] [--global]\n                             [--match PREVIEW]... [--not-match PREVIEW]...\n       basis-tools rules test NAME [INPUT|-] [--json]\n       basis-tools rules remove ID\n       basis-tools rules check\n\nЗбережені правила лежать у rules.json у каталозі конфігурації (ніколи не в робочому просторі).\nУмови правила стосуються окремих полів попереднього перегляду виклику, і виконатися мають усі.\nБез умов add закріплює поточні програму, argv і cwd інструмента (аргумент із вхідних даних\nзбігається з будь-яким значенням, а необов’язковий — ще й із відсутністю). Правило deny\nпереважає правило ask, а те — правило allow. Правила діють у поточному робочому просторі (його\nсправжньому шляху), якщо не задано --global. test показує попередній перегляд і рішення, нічого\nне запускаючи: код 0, якщо дозволено, 5 — якщо ні. list обрізано до ширини термінала.",
    "opt.http":
      "надавати Streamable HTTP на HOST:PORT замість stdio\n(потрібен токен, якщо HOST не loopback)",
    "cli.bad_http":
      "Некоректне значення --http {value}: задайте HOST:PORT (ім’я чи IP-адресу, [::1] для IPv6, і порт від 0 до 65535)",
    "cli.short_token":
      "Некоректний BASIS_MCP_TOKEN: токен має щонайменше 32 символи (його значення не показано)",
    "http.token":
      "Токен Bearer цього сервера (показано один раз; власний задає BASIS_MCP_TOKEN): {token}",
    "opt.workspace":
      "корінь робочого простору (типово: найближчий каталог-предок\nіз .basis/tools.json)",
    "opt.config_dir":
      "глобальний каталог конфігурації (типово: $BASIS_CONFIG_DIR,\n$XDG_CONFIG_HOME/basis, ~/.config/basis)",
    "opt.json": "виводити JSON замість тексту",
    "opt.approve": "prompt | always | never (типово: $BASIS_APPROVE, інакше prompt)",
    "opt.audit_log":
      "куди записувати рішення й запуски, або off (типово:\n$BASIS_AUDIT_LOG, інакше ~/.local/state/basis/audit.jsonl)",
    "opt.env": "додати змінну до середовища кожного інструмента (можна повторювати)",
    "opt.no_shell": "spawn не виконує команд (завдання для субагента все ще працюють)",
    "opt.spawn_timeout":
      "обмеження часу виклику spawn (типово 120000 для команди,\n600000 для субагента; не більше 600000)",
    "opt.locale": "мова повідомлень: en-US | uk-UA",
    "opt.help": "показати довідку",
    "opt.version": "показати версію (з --json — як JSON)",
    "opt.timeout": "замінити timeout_ms інструмента для цього виклику",
    "opt.dry_run": "показати попередній перегляд і рішення, нічого не запускаючи",
    "opt.quiet": "жодних власних приміток basis-tools у stderr, коли виклик успішний",
    "opt.result": "вивести результат, який читає модель, замість виводу програми",
    "opt.strict": "те, що зламається лише під час виклику (програму не знайдено), — проблема",
    "opt.tool": "інструмент, для якого правило (для add — обов’язково)",
    "opt.program": "програма, яка справді запуститься (її закріплює кожне правило allow чи ask)",
    "opt.argv":
      'умова для кожного аргументу: "текст" точно, {"glob": "a*"} у межах\nцього аргументу, {"rest": true} наприкінці — будь-які подальші аргументи',
    "opt.cwd": "робочий каталог, точно",
    "opt.sandbox":
      'дозволи пісочниці виклику, точно: {"network": false, "write": [...],\n"read": [...]}, "unconfined" або "any" (правило allow без них\nдіє лише для виклику без дозволів)',
    "opt.input": "значення вхідних даних за вказівником JSON дорівнює JSON (можна повторювати)",
    "opt.body": "spawn: рядок команди чи завдання, точно",
    "opt.body_glob": "spawn: шаблон glob для рядка команди (лише прості команди)",
    "opt.target": "spawn: ціль",
    "opt.mode": "spawn: режим, command | agent",
    "opt.when": "увесь об’єкт умов (параметри вище накладаються на нього)",
    "opt.deny": "правило, що відмовляє",
    "opt.ask": "правило, що завжди питає людину",
    "opt.reason": "чому, одним рядком (показується з відмовою)",
    "opt.global": "правило для кожного робочого простору",
    "opt.match": "приклад попереднього перегляду, з яким правило має збігатися (можна повторювати)",
    "opt.not_match":
      "приклад попереднього перегляду, з яким правило не має збігатися (можна повторювати)",
    "opt.format_schema":
      'форма визначень:\nopenai      {"type": "function", "function": {name, description, parameters, strict}}\n            (типово)\nanthropic   {name, description, input_schema}\nmcp         {name, title, description, inputSchema, outputSchema?, annotations}\ngemini      {name, description, parametersJsonSchema, responseJsonSchema?}',
    "opt.format_permissions":
      'що виводити:\nflags       один рядок прапорців deno для вставлення (типово; json з --json)\njson        {flags, read, write, env, run, programs, warnings}\ndeno-json   набір "permissions" для deno.json (deno run -P, Deno 2.5 або новіший)\ncompile     команда deno compile для двійкового файлу, обмеженого цим робочим простором',
  };
}
