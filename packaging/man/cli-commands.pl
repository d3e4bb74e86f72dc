#!/usr/bin/perl
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a help2man include file with a COMMANDS section: the --help of every subcommand
# of ioprism-cli, in roff. help2man itself reads only the top-level --help, which lists the
# subcommands without their options; this keeps ioprism-cli(1) complete and always in step
# with the program (a new subcommand or option appears at the next build).
#
#   perl cli-commands.pl path/to/ioprism-cli > commands.h2m
#
# The help text is CLI11's: a description, "Usage: ...", then "Positionals:" / "Options:"
# blocks of "  TERM  DESCRIPTION" lines, then a footer the top-level help already shows.
use strict;
use warnings;

my $cli = shift or die "usage: $0 IOPRISM-CLI\n";

sub help { # command words -> lines of help text
    open(my $fh, '-|', $cli, @_, '--help') or die "$cli: $!\n";
    my @lines = map { s/\s+$//r } <$fh>;
    close($fh) or die "$cli @_ --help failed\n";
    return @lines;
}

sub roff { # plain text -> roff-safe text
    my $t = shift;
    $t =~ s/\\/\\e/g;
    $t =~ s/^([.'])/\\&$1/;
    return $t;
}

sub term { # "-q,--quiet" / "--target TEXT ..." -> options bold, hyphens as minus signs
    return join ' ', map {
        /^-/ ? join(',', map { '\\fB' . (roff($_) =~ s/-/\\-/gr) . '\\fR' } split /,/)
             : '\\fI' . roff($_) . '\\fR'
    } split / /, shift;
}

my @top = help();
# The footer: the unindented lines after the top-level help's last block (exit codes...).
my %footer;
for (reverse @top) { last unless /^\S/ && !/:$/; $footer{$_} = 1; }

sub subcommands { # help lines -> the names under "Subcommands:"
    my (@names, $in);
    for (@_) {
        if (/^Subcommands:$/) { $in = 1; next; }
        last if $in && !/^  (\S+)/;
        push @names, $1 if $in;
    }
    return @names;
}

my @commands = map { [$_] } subcommands(@top);
die "$cli --help lists no subcommands\n" unless @commands;

print "[COMMANDS]\n";
print "Each command has its own \\fB\\-\\-help\\fR, shown here.\n";
while (my $words = shift @commands) {
    my @lines = help(@$words);
    # Nested commands ("presets show") follow their parent.
    unshift @commands, map { [@$words, $_] } subcommands(@lines);
    my ($usage) = grep { /^Usage: / } @lines;
    $usage = defined $usage ? $usage =~ s/^Usage: \S+ //r : "@$words";
    print ".SS \"", roff($usage) =~ s/-/\\-/gr =~ s/"/\\(dq/gr, "\"\n";
    my $heading; # printed before the block's first entry, so an empty block shows none
    for (@lines) {
        next if /^Usage: / || $_ eq '' || $footer{$_};
        if (/^(Positionals|Options|Subcommands):$/) {
            $heading = { Positionals => 'Arguments', Options => 'Options',
                         Subcommands => 'Commands' }->{$1};
            next;
        }
        if (/^  (\S.*?)(?:\s{2,}(\S.*))?$/) {
            next if $1 eq '-h,--help';
            print ".PP\n\\fB$heading\\fR\n" if defined $heading;
            undef $heading;
            print ".TP\n", term($1), "\n";
            print roff($2), "\n" if defined $2;
        } elsif (/^\s{3,}(\S.*)$/) { # a wrapped description
            print roff($1), "\n";
        } else {
            print ".PP\n", roff($_), "\n";
        }
    }
}
