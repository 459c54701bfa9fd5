// On Darwin `XMLParser` is part of Foundation (Foundation's NSXMLParser.h;
// developer.apple.com/documentation/foundation/xmlparser). swift-corelibs-foundation moved it to
// FoundationXML and leaves an unavailable placeholder of the same name in Foundation, so a Darwin
// branch that imports Foundation alone finds only the placeholder. Part of the stub module `Darwin`
// (see Darwin.swift): the name is written `Darwin.XMLParser` in the checked copy and resolves to the
// corelibs class, whose initialisers and `parse()` have the signatures Apple documents.
import FoundationXML

public typealias XMLParser = FoundationXML.XMLParser
