#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A GTK 3 program with a text field, as kiosk programs built on GTK are:
a window with one entry, which has the focus from the start. Each change
of the entry's text is appended to LOG as "text: TEXT". GTK takes text
from an input method through its Wayland module (text-input-v3;
GTK_IM_MODULE=wayland). Runs until the compositor goes or it is ended.
Debian's own Python (python3-gi, gir1.2-gtk-3.0).

    gtk-field.py LOG
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def main():
    log = sys.argv[1]
    window = Gtk.Window(title="gtk-field")
    entry = Gtk.Entry()

    def changed(field):
        with open(log, "a") as said:
            said.write("text: %s\n" % field.get_text())

    entry.connect("changed", changed)
    window.add(entry)
    window.connect("destroy", Gtk.main_quit)
    window.show_all()
    entry.grab_focus()
    Gtk.main()


if __name__ == "__main__":
    main()
