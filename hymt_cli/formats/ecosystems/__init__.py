"""The project files of i18n ecosystems that say where a catalog's source is and which locales a
project keeps: Xcode's `project.pbxproj`, Flutter's `l10n.yaml`, Angular's `angular.json`,
gettext's `LINGUAS`. Each module reads one of them (plain data, no layouts: layout.py and the
formats use them)."""
